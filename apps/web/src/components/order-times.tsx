import type { OrderDto } from '@resi/contract';
import { useTranslation } from 'react-i18next';
import { formatDateTime } from '@/lib/format';

/** When an order was created and, below it, when it was paid: one table column instead of two. */
export function OrderTimes({ order }: { order: Pick<OrderDto, 'createdAt' | 'paidAt'> }) {
  const { t } = useTranslation();
  return (
    <div className="order-times">
      <span>{formatDateTime(order.createdAt)}</span>
      {order.paidAt ? <span className="order-times__paid">{t('commerce.paidAt', { time: formatDateTime(order.paidAt) })}</span> : null}
    </div>
  );
}

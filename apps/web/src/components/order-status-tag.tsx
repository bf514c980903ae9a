import type { OrderStatus } from '@resi/contract';
import { Tag } from 'antd';
import { useTranslation } from 'react-i18next';

const COLORS: Record<OrderStatus, string> = {
  pending: 'processing',
  paid: 'success',
  cancelled: 'default',
  expired: 'warning',
  refunded: 'purple',
};

export function OrderStatusTag({ status }: { status: OrderStatus }) {
  const { t } = useTranslation();
  return (
    <Tag color={COLORS[status]} data-testid="order-status" data-status={status}>
      {t(`commerce.orderStatus.${status}`)}
    </Tag>
  );
}

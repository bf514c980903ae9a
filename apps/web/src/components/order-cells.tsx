import { normalizeLang, type OrderDto } from '@resi/contract';
import { useTranslation } from 'react-i18next';
import { formatMoney } from '@/lib/format';
import { OrderStatusTag } from './order-status-tag';
import { OrderTimes } from './order-times';
import { PayMethodLabel } from './pay-method-label';

/*
 * Paired cells of the order lists (Recharge Details, the order desk): two facts in one column, so the lists fit
 * a laptop's width with nothing under the pinned Actions column.
 */

/** The amount, and the method under it. An order of amount 0 (an admin's recharge or grant) shows no price. */
export function OrderPaymentCell({ order, showDemo }: { order: Pick<OrderDto, 'amount' | 'currency' | 'payMethod'>; showDemo?: boolean }) {
  const { t, i18n } = useTranslation();
  return (
    <div className="cell-payment">
      <span className="cell-payment__amount">{order.amount === 0 ? t('commerce.none') : formatMoney(order.amount, order.currency, normalizeLang(i18n.language))}</span>
      <PayMethodLabel method={order.payMethod} showDemo={showDemo} />
    </div>
  );
}

/** The status, and when the order was made and paid under it. */
export function OrderStateCell({ order }: { order: Pick<OrderDto, 'status' | 'createdAt' | 'paidAt'> }) {
  return (
    <div className="cell-state">
      <OrderStatusTag status={order.status} />
      <OrderTimes order={order} />
    </div>
  );
}

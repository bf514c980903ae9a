import { normalizeLang, type OrderDto, type OrderStatus, type PayMethod } from '@resi/contract';
import type { TableColumnsType } from 'antd';
import { useTranslation } from 'react-i18next';
import { OrderItems } from '@/components/order-items';
import { OrderStatusTag } from '@/components/order-status-tag';
import { OrderTimes } from '@/components/order-times';
import { PayMethodLabel } from '@/components/pay-method-label';
import { formatMoney } from '@/lib/format';

/** The columns of a customer's own order list (traffic orders, static orders); `itemsTitle` names what was bought. */
export function useMyOrderColumns(itemsTitle: string): TableColumnsType<OrderDto> {
  const { t, i18n } = useTranslation();
  const lang = normalizeLang(i18n.language);
  return [
    { title: t('rotating.orders.columns.status'), dataIndex: 'status', render: (s: OrderStatus) => <OrderStatusTag status={s} /> },
    { title: t('rotating.orders.columns.method'), dataIndex: 'payMethod', className: 'nowrap', render: (m: PayMethod | null) => <PayMethodLabel method={m} /> },
    {
      title: t('rotating.orders.columns.amount'),
      key: 'amount',
      align: 'right',
      className: 'nowrap',
      // An admin's recharge or grant is a paid order of amount 0: no money changed hands through the console.
      render: (_v, order) => (order.amount === 0 ? t('commerce.none') : formatMoney(order.amount, order.currency, lang)),
    },
    { title: itemsTitle, key: 'items', render: (_v, order) => <OrderItems order={order} /> },
    { title: t('rotating.orders.columns.time'), key: 'time', className: 'nowrap', render: (_v, order) => <OrderTimes order={order} /> },
    // The number in monospace, not its header: a column's className would dress the header cell too.
    { title: t('rotating.orders.columns.orderNo'), dataIndex: 'orderNo', className: 'nowrap', render: (v: string) => <span className="mono">{v}</span> },
  ];
}

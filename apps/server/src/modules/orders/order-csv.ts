import type { CsvColumn } from '../exports/csv';
import { decimalAmount } from '../exports/csv';
import { type OrderRow, orderItems } from '../../db/rows';

/** Columns of the order desk's CSV export (`/manage/order?token=`); codes stay codes so filters in a sheet work. */
export const orderCsvColumns: CsvColumn<OrderRow & { user_email: string }>[] = [
  { key: 'orderNo', value: (o) => o.order_no },
  { key: 'userEmail', value: (o) => o.user_email },
  { key: 'kind', value: (o) => o.kind },
  { key: 'status', value: (o) => o.status },
  { key: 'payMethod', value: (o) => o.pay_method },
  { key: 'amount', value: (o) => decimalAmount(Number(o.amount), o.currency) },
  { key: 'currency', value: (o) => o.currency },
  {
    key: 'items',
    value: (o, lang) =>
      orderItems(o)
        .map((item) => (item.quantity > 1 ? `${item.name[lang]} × ${item.quantity}` : item.name[lang]))
        .join('; '),
  },
  { key: 'createdAt', value: (o) => o.created_at },
  { key: 'paidAt', value: (o) => o.paid_at },
  { key: 'paidBy', value: (o) => o.paid_by },
  { key: 'providerRef', value: (o) => o.provider_ref },
  { key: 'note', value: (o) => o.note },
];

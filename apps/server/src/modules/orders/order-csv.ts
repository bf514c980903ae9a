import type { CsvColumn } from '../exports/csv';
import { decimalAmount, wordsAndCode } from '../exports/csv';
import { type OrderRow, orderItems } from '../../db/rows';

/** Columns of the order desk's CSV export (`/manage/order?token=`): words as on screen, each beside its code so filters in a sheet and programs work. */
export const orderCsvColumns: CsvColumn<OrderRow & { user_email: string }>[] = [
  { key: 'orderNo', value: (o) => o.order_no },
  { key: 'userEmail', value: (o) => o.user_email },
  ...wordsAndCode<OrderRow & { user_email: string }>('kind', 'orderKind', (o) => o.kind),
  ...wordsAndCode<OrderRow & { user_email: string }>('status', 'orderStatus', (o) => o.status),
  ...wordsAndCode<OrderRow & { user_email: string }>('payMethod', 'payMethod', (o) => o.pay_method),
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
  ...wordsAndCode<OrderRow & { user_email: string }>('paidBy', 'paidBy', (o) => o.paid_by),
  { key: 'providerRef', value: (o) => o.provider_ref },
  { key: 'note', value: (o) => o.note },
];

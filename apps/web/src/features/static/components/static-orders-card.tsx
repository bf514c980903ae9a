import { ReloadOutlined } from '@ant-design/icons';
import { normalizeLang, type OrderDto, type OrderStatus, type PayMethod } from '@resi/contract';
import { Button, Card } from 'antd';
import { useTranslation } from 'react-i18next';
import { OrderItems } from '@/components/order-items';
import { OrderStatusTag } from '@/components/order-status-tag';
import { OrderTimes } from '@/components/order-times';
import { PagedTable, usePagedQuery } from '@/components/paged-table';
import { PayMethodLabel } from '@/components/pay-method-label';
import { formatMoney } from '@/lib/format';
import { staticOrdersQueryOptions } from '../api/get-static-orders';

export const STATIC_ORDERS_PAGE_SIZE = 10;

/** The customer's static IP orders and renewals (GET /api/record/static-order), paged by the server. */
export function StaticOrdersCard() {
  const { t, i18n } = useTranslation();
  const lang = normalizeLang(i18n.language);
  const paged = usePagedQuery(staticOrdersQueryOptions, {}, STATIC_ORDERS_PAGE_SIZE);
  const orders = paged.query;

  return (
    <Card
      variant="borderless"
      className="surface-card"
      title={t('static.orders.title')}
      extra={
        <Button icon={<ReloadOutlined />} onClick={() => void orders.refetch()} loading={orders.isFetching} data-testid="static-orders-refresh">
          {t('static.list.refresh')}
        </Button>
      }
      data-testid="static-orders"
    >
      <PagedTable<OrderDto>
        paged={paged}
        rowKey="orderNo"
        size="middle"
        emptyText={t('static.orders.empty')}
        errorTitle={t('static.orders.failed')}
        columns={[
          { title: t('rotating.orders.columns.status'), dataIndex: 'status', render: (s: OrderStatus) => <OrderStatusTag status={s} /> },
          { title: t('rotating.orders.columns.method'), dataIndex: 'payMethod', className: 'nowrap', render: (m: PayMethod | null) => <PayMethodLabel method={m} /> },
          {
            title: t('rotating.orders.columns.amount'),
            key: 'amount',
            align: 'right',
            className: 'nowrap',
            // An admin grant is a paid order of amount 0: nothing was charged through the console.
            render: (_v, order) => (order.amount === 0 ? t('commerce.none') : formatMoney(order.amount, order.currency, lang)),
          },
          { title: t('static.orders.items'), key: 'items', render: (_v, order) => <OrderItems order={order} /> },
          { title: t('rotating.orders.columns.time'), key: 'time', className: 'nowrap', render: (_v, order) => <OrderTimes order={order} /> },
          { title: t('rotating.orders.columns.orderNo'), dataIndex: 'orderNo', className: 'nowrap mono' },
        ]}
      />
    </Card>
  );
}

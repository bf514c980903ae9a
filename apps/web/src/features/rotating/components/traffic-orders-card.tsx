import { HistoryOutlined, ReloadOutlined } from '@ant-design/icons';
import { normalizeLang, type OrderDto, type OrderStatus, type PayMethod } from '@resi/contract';
import { Button, Card, Space } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { myOrdersQueryOptions } from '@/api/get-my-orders';
import { OrderItems } from '@/components/order-items';
import { OrderStatusTag } from '@/components/order-status-tag';
import { OrderTimes } from '@/components/order-times';
import { PagedTable, usePagedQuery } from '@/components/paged-table';
import { PayMethodLabel } from '@/components/pay-method-label';
import { formatMoney } from '@/lib/format';

export const TRAFFIC_ORDERS_PAGE_SIZE = 10;

/** The customer's traffic orders (GET /api/record/dynamic-order), paged by the server; filters live on Recharge Details. */
export function TrafficOrdersCard() {
  const { t, i18n } = useTranslation();
  const lang = normalizeLang(i18n.language);
  const paged = usePagedQuery(myOrdersQueryOptions, {}, TRAFFIC_ORDERS_PAGE_SIZE);
  const orders = paged.query;

  return (
    <Card
      variant="borderless"
      className="surface-card"
      title={t('rotating.orders.title')}
      extra={
        <Space wrap>
          <Button icon={<ReloadOutlined />} onClick={() => void orders.refetch()} loading={orders.isFetching} data-testid="traffic-orders-refresh">
            {t('rotating.orders.refresh')}
          </Button>
          <Link to="/center/rechargeDetails">
            <Button type="link" icon={<HistoryOutlined />}>
              {t('rotating.orders.all')}
            </Button>
          </Link>
        </Space>
      }
      data-testid="traffic-orders"
    >
      <PagedTable<OrderDto>
        paged={paged}
        rowKey="orderNo"
        size="middle"
        emptyText={t('rotating.orders.empty')}
        columns={[
          { title: t('rotating.orders.columns.status'), dataIndex: 'status', render: (s: OrderStatus) => <OrderStatusTag status={s} /> },
          { title: t('rotating.orders.columns.method'), dataIndex: 'payMethod', className: 'nowrap', render: (m: PayMethod | null) => <PayMethodLabel method={m} /> },
          {
            title: t('rotating.orders.columns.amount'),
            key: 'amount',
            align: 'right',
            className: 'nowrap',
            // A manual recharge is credited by an admin: no money changed hands through the console.
            render: (_v, order) => (order.kind === 'manual-recharge' ? t('commerce.none') : formatMoney(order.amount, order.currency, lang)),
          },
          { title: t('rotating.orders.columns.package'), key: 'package', render: (_v, order) => <OrderItems order={order} /> },
          { title: t('rotating.orders.columns.time'), key: 'time', className: 'nowrap', render: (_v, order) => <OrderTimes order={order} /> },
          { title: t('rotating.orders.columns.orderNo'), dataIndex: 'orderNo', className: 'nowrap mono' },
        ]}
      />
    </Card>
  );
}

import { HistoryOutlined, ReloadOutlined } from '@ant-design/icons';
import type { OrderDto } from '@resi/contract';
import { Button, Card, Space } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { myOrdersQueryOptions } from '@/api/get-my-orders';
import { useMyOrderColumns } from '@/components/my-order-columns';
import { PagedTable, usePagedQuery } from '@/components/paged-table';

export const TRAFFIC_ORDERS_PAGE_SIZE = 10;

/** The customer's traffic orders (GET /api/record/dynamic-order), paged by the server; filters live on Recharge Details. */
export function TrafficOrdersCard() {
  const { t } = useTranslation();
  const columns = useMyOrderColumns(t('rotating.orders.columns.package'));
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
        columns={columns}
      />
    </Card>
  );
}

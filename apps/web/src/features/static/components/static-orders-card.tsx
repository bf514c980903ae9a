import { ReloadOutlined } from '@ant-design/icons';
import type { OrderDto } from '@resi/contract';
import { Button, Card } from 'antd';
import { useTranslation } from 'react-i18next';
import { useMyOrderColumns } from '@/components/my-order-columns';
import { PagedTable, usePagedQuery } from '@/components/paged-table';
import { staticOrdersQueryOptions } from '../api/get-static-orders';

export const STATIC_ORDERS_PAGE_SIZE = 10;

/** The customer's static IP orders and renewals (GET /api/record/static-order), paged by the server. */
export function StaticOrdersCard() {
  const { t } = useTranslation();
  const columns = useMyOrderColumns(t('static.orders.items'));
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
        columns={columns}
      />
    </Card>
  );
}

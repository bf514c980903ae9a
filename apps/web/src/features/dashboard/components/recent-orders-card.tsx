import { HistoryOutlined } from '@ant-design/icons';
import { normalizeLang, type OrderDto } from '@resi/contract';
import { Button, Card, Empty, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useMyOrders } from '@/api/get-my-orders';
import { OrderItems } from '@/components/order-items';
import { OrderStatusTag } from '@/components/order-status-tag';
import { QueryState } from '@/components/query-state';
import { formatDateTime, formatMoney } from '@/lib/format';

export const RECENT_ORDERS = 5;

/** The customer's latest orders; the full, filterable list is Recharge Details. */
export function RecentOrdersCard() {
  const { t, i18n } = useTranslation();
  const lang = normalizeLang(i18n.language);
  const orders = useMyOrders({ page: 1, pageSize: RECENT_ORDERS });
  return (
    <Card
      variant="borderless"
      className="surface-card"
      title={t('home.orders.title')}
      extra={
        <Link to="/center/rechargeDetails">
          <Button type="link" icon={<HistoryOutlined />}>
            {t('home.orders.all')}
          </Button>
        </Link>
      }
      data-testid="home-orders"
    >
      <QueryState query={orders}>
        {({ items }) =>
          items.length === 0 ? (
            <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('home.orders.empty')} />
          ) : (
            <ul className="recent-orders">
              {items.map((order: OrderDto) => (
                <li key={order.orderNo} className="recent-orders__row" data-testid="home-order">
                  <div className="recent-orders__what">
                    <OrderItems order={order} />
                    <Typography.Text type="secondary" className="nowrap">
                      {order.kind === 'manual-recharge' ? t('commerce.none') : formatMoney(order.amount, order.currency, lang)} · {formatDateTime(order.createdAt)}
                    </Typography.Text>
                  </div>
                  <OrderStatusTag status={order.status} />
                </li>
              ))}
            </ul>
          )
        }
      </QueryState>
    </Card>
  );
}

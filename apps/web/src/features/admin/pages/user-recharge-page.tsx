import { Badge, Card, Tabs } from 'antd';
import { useTranslation } from 'react-i18next';
import { usePaymentReviews } from '../api/get-payment-reviews';
import { OrderDesk } from '../components/order-desk';
import { PaymentReviews } from '../components/payment-reviews';

/** /manage/order: every order (verify, recharge, export) and the payments waiting for a decision. */
export default function UserRechargePage() {
  const { t } = useTranslation();
  // Only the count, for the tab's badge.
  const open = usePaymentReviews({ page: 1, pageSize: 1, status: 'open' });
  const openCount = open.data?.total ?? 0;
  return (
    <Card variant="borderless" className="surface-card" data-testid="user-recharge">
      <Tabs
        defaultActiveKey="orders"
        items={[
          { key: 'orders', label: t('admin.orders.tab'), children: <OrderDesk /> },
          {
            key: 'reviews',
            label: (
              <span data-testid="reviews-tab">
                {t('admin.reviews.tab')} <Badge count={openCount} size="small" offset={[4, -2]} />
              </span>
            ),
            children: <PaymentReviews />,
          },
        ]}
      />
    </Card>
  );
}

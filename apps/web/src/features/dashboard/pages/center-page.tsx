import { ApiOutlined, ArrowRightOutlined, IdcardOutlined, ShoppingCartOutlined } from '@ant-design/icons';
import { Card, Col, Row, Typography } from 'antd';
import { lazy, type ReactNode, Suspense } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useCurrentUser } from '@/api/get-current-user';
import { useTraffic } from '@/api/get-traffic';
import { TipsPanel } from '@/components/tips-panel';
import { TrafficBalanceCard } from '@/components/traffic-balance-card';
import { userAccess } from '@/lib/access';
import { usageQuery } from '@/lib/usage-data';
import { ExpiringStaticCard } from '../components/expiring-static-card';
import { RecentOrdersCard } from '../components/recent-orders-card';
import { UsageOverviewCard } from '../components/usage-overview-card';

// Only admins see it, so customers' first load does not carry it.
const AdminSummaryCard = lazy(() => import('../components/admin-summary-card'));

function QuickLink({ to, icon, title, text }: { to: string; icon: ReactNode; title: string; text: string }) {
  return (
    <Link to={to} className="quick-link">
      <span className="quick-link__icon">{icon}</span>
      <span className="quick-link__body">
        <span className="quick-link__title">{title}</span>
        <span className="quick-link__text">{text}</span>
      </span>
      <ArrowRightOutlined className="quick-link__arrow" />
    </Link>
  );
}

/**
 * /center: welcome and shortcuts, the tips panel, the traffic balance, the last week's usage and the latest
 * orders, static IPs about to expire, and for admins a statistics summary (docs/console.md#account-home).
 */
export default function CenterPage() {
  const { t } = useTranslation();
  const user = useCurrentUser();
  // One request gives the balance, its grants and the 7-day series.
  const traffic = useTraffic(usageQuery('7d', undefined));
  return (
    <Row gutter={[20, 20]}>
      <Col xs={24} xl={16}>
        <Card variant="borderless" className="surface-card welcome-card" data-testid="welcome">
          <Typography.Title level={4} className="welcome-card__title">
            {t('home.welcome.title')}
          </Typography.Title>
          <Typography.Paragraph className="welcome-card__email">
            {t('home.welcome.signedInAs')} <strong data-testid="welcome-email">{user?.email}</strong>
          </Typography.Paragraph>
          <Typography.Paragraph type="secondary">{t('home.welcome.lead')}</Typography.Paragraph>
          <div className="quick-links">
            <QuickLink to="/center/buy" icon={<ShoppingCartOutlined />} title={t('menu.buy')} text={t('home.quick.buy')} />
            <QuickLink to="/center/proxy" icon={<ApiOutlined />} title={t('menu.proxy')} text={t('home.quick.proxy')} />
            <QuickLink to="/user/personal" icon={<IdcardOutlined />} title={t('menu.myAccount')} text={t('home.quick.personal')} />
          </div>
        </Card>
      </Col>
      <Col xs={24} xl={8}>
        <Card variant="borderless" className="surface-card">
          <TipsPanel />
        </Card>
      </Col>
      {userAccess(user).admin ? (
        <Col span={24}>
          <Suspense fallback={null}>
            <AdminSummaryCard />
          </Suspense>
        </Col>
      ) : null}
      <ExpiringStaticCard />
      <Col span={24}>
        <TrafficBalanceCard traffic={traffic} />
      </Col>
      <Col xs={24} xl={14}>
        <UsageOverviewCard usage={traffic} />
      </Col>
      <Col xs={24} xl={10}>
        <RecentOrdersCard />
      </Col>
    </Row>
  );
}


import { Col, Flex, Row, Tabs } from 'antd';
import { useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { useCurrentUser } from '@/api/get-current-user';
import { QueryState } from '@/components/query-state';
import { userAccess } from '@/lib/access';
import { useDistributionInfo } from '../api/get-distribution-info';
import { useDistributionInvite } from '../api/get-distribution-invite';
import { BalanceFigures } from '../components/balance-figures';
import { CommissionLedger } from '../components/commission-ledger';
import { DistributionSettingsCard } from '../components/distribution-settings-form';
import { InviteLinks } from '../components/invite-links';
import { MyPayoffs } from '../components/my-payoffs';
import { PayoffForm } from '../components/payoff-form';
import { PayoffRequestsAdmin } from '../components/payoff-requests-admin';

const ADMIN_TABS = ['mine', 'requests', 'settings'] as const;
type AdminTab = (typeof ADMIN_TABS)[number];

/** The caller's own distribution: figures, links, ledger, payoff form and requests. */
function MyDistribution({ userId }: { userId: number }) {
  const { t } = useTranslation();
  const info = useDistributionInfo();
  const invite = useDistributionInvite();
  return (
    <Flex vertical gap={16} data-testid="distribution-manage">
      <QueryState query={info} placeholder={<BalanceFigures />} errorTitle={t('distributionManage.figures.loadFailed')} errorTestId="distribution-info-error">
        {(data) => <BalanceFigures info={data} />}
      </QueryState>
      <Row gutter={[16, 16]}>
        <Col xs={24} xl={14}>
          <QueryState query={invite} placeholder={<InviteLinks />} errorTitle={t('distributionManage.invite.loadFailed')}>
            {(data) => <InviteLinks invite={data} />}
          </QueryState>
        </Col>
        <Col xs={24} xl={10}>
          <QueryState query={info} rows={6} errorTitle={t('distributionManage.payoff.loadFailed')} errorTestId="distribution-payoff-error">
            {(data) => <PayoffForm info={data} />}
          </QueryState>
        </Col>
      </Row>
      <CommissionLedger />
      <MyPayoffs userId={userId} />
    </Flex>
  );
}

function SettingsTab() {
  const { t } = useTranslation();
  const info = useDistributionInfo();
  return (
    <QueryState query={info} rows={6} errorTitle={t('distributionManage.settings.loadFailed')}>
      {(data) => <DistributionSettingsCard currency={data.currency} />}
    </QueryState>
  );
}

/**
 * /distribution/manage (docs/console.md#distribution-management): a distributor's commission and payoffs;
 * an admin also decides everyone's payoff requests and keeps the distribution settings, in tabs (`?tab=`).
 */
export default function DistributionManagePage() {
  const { t } = useTranslation();
  const user = useCurrentUser();
  const [params, setParams] = useSearchParams();
  if (!user) return null;
  if (!userAccess(user).admin) return <MyDistribution userId={user.id} />;
  const asked = params.get('tab');
  const tab: AdminTab = ADMIN_TABS.includes(asked as AdminTab) ? (asked as AdminTab) : 'mine';
  return (
    <Tabs
      activeKey={tab}
      onChange={(key) => setParams(key === 'mine' ? {} : { tab: key }, { replace: true })}
      data-testid="distribution-tabs"
      items={[
        { key: 'mine', label: <span data-testid="distribution-tab-mine">{t('distributionManage.tabs.mine')}</span>, children: <MyDistribution userId={user.id} /> },
        { key: 'requests', label: <span data-testid="distribution-tab-requests">{t('distributionManage.tabs.requests')}</span>, children: <PayoffRequestsAdmin /> },
        { key: 'settings', label: <span data-testid="distribution-tab-settings">{t('distributionManage.tabs.settings')}</span>, children: <SettingsTab /> },
      ]}
    />
  );
}

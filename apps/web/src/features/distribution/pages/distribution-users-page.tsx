import { Card } from 'antd';
import { useTranslation } from 'react-i18next';
import { useCurrentUser } from '@/api/get-current-user';
import { userAccess } from '@/lib/access';
import { ReferralList } from '../components/referral-list';

/** /distribution/user: a distributor's referred users (an admin's: everyone's), created and edited here. */
export default function DistributionUsersPage() {
  const { t } = useTranslation();
  const user = useCurrentUser();
  return (
    <Card variant="borderless" className="surface-card" title={t('distributionUsers.title')} data-testid="distribution-users">
      <ReferralList isAdmin={userAccess(user).admin} canCreate={user?.isDistributor === true} />
    </Card>
  );
}

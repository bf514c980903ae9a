import { Col, Row } from 'antd';
import { useCurrentUser } from '@/api/get-current-user';
import { PageLoading } from '@/components/page-loading';
import { AlertSettingsCard } from '../components/alert-settings-card';
import { ApiKeysCard } from '../components/api-keys-card';
import { ChangePasswordCard } from '../components/change-password-card';
import { InviteLinkCard } from '../components/invite-link-card';
import { ProfileCard } from '../components/profile-card';
import { WebhooksCard } from '../components/webhooks-card';

/** /user/personal: profile, invite link, change password, usage alerts, API keys, webhooks, logout. */
export default function PersonalPage() {
  const user = useCurrentUser();
  if (!user) return <PageLoading />;
  return (
    <Row gutter={[20, 20]}>
      <Col span={24}>
        <ProfileCard user={user} />
      </Col>
      <Col xs={24} xl={12}>
        <InviteLinkCard inviteCode={user.inviteCode} />
      </Col>
      <Col xs={24} xl={12}>
        <ChangePasswordCard email={user.email} />
      </Col>
      <Col span={24}>
        <AlertSettingsCard />
      </Col>
      {/* Full width, the tables last: they are the page's widest parts. */}
      <Col span={24}>
        <ApiKeysCard />
      </Col>
      <Col span={24}>
        <WebhooksCard />
      </Col>
    </Row>
  );
}

import { Col, Row } from 'antd';
import { useCurrentUser } from '@/api/get-current-user';
import { PageLoading } from '@/components/page-loading';
import { ApiKeysCard } from '../components/api-keys-card';
import { ChangePasswordCard } from '../components/change-password-card';
import { InviteLinkCard } from '../components/invite-link-card';
import { ProfileCard } from '../components/profile-card';

/** /user/personal: profile, invite link, change password, API keys, logout. */
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
      {/* Last and full width: its table is the page's widest part, and loading it moves nothing below. */}
      <Col span={24}>
        <ApiKeysCard />
      </Col>
    </Row>
  );
}

import { LogoutOutlined, UserOutlined } from '@ant-design/icons';
import type { UserDto } from '@resi/contract';
import { Avatar, Badge, Button, Card, Descriptions, Tag } from 'antd';
import dayjs from 'dayjs';
import { useTranslation } from 'react-i18next';
import { useLogout } from '@/api/logout';

function formatTime(value: string | null): string | null {
  return value ? dayjs(value).format('YYYY-MM-DD HH:mm') : null;
}

/** Who the user is: email, account, role, distributor flag, created, last login; and logout. */
export function ProfileCard({ user }: { user: UserDto }) {
  const { t } = useTranslation();
  const logout = useLogout();
  return (
    <Card variant="borderless" className="surface-card profile-card" data-testid="profile-card">
      <div className="profile-card__head">
        <Avatar size={56} icon={<UserOutlined />} className="profile-card__avatar" />
        <div className="profile-card__who">
          <div className="profile-card__email">{user.email}</div>
          <div className="profile-card__tags">
            <Tag color={user.role === 'admin' ? 'gold' : 'blue'}>{t(`account.role.${user.role}`)}</Tag>
            {user.isDistributor ? <Tag color="green">{t('account.profile.distributorTag')}</Tag> : null}
            <Badge status={user.status === 'active' ? 'success' : 'error'} text={t(`account.status.${user.status}`)} />
          </div>
        </div>
        <Button icon={<LogoutOutlined />} onClick={() => logout.mutate()} loading={logout.isPending} data-testid="logout">
          {logout.isPending ? t('account.profile.loggingOut') : t('account.profile.logout')}
        </Button>
      </div>
      <Descriptions column={{ xs: 1, sm: 2 }} size="middle" className="profile-card__details">
        <Descriptions.Item label={t('account.profile.email')}>{user.email}</Descriptions.Item>
        <Descriptions.Item label={t('account.profile.account')}>{user.account ?? t('account.profile.none')}</Descriptions.Item>
        <Descriptions.Item label={t('account.profile.role')}>{t(`account.role.${user.role}`)}</Descriptions.Item>
        <Descriptions.Item label={t('account.profile.distributor')}>{user.isDistributor ? t('common.yes') : t('common.no')}</Descriptions.Item>
        <Descriptions.Item label={t('account.profile.createdAt')}>{formatTime(user.createdAt)}</Descriptions.Item>
        <Descriptions.Item label={t('account.profile.lastLoginAt')}>{formatTime(user.lastLoginAt) ?? t('account.profile.never')}</Descriptions.Item>
      </Descriptions>
    </Card>
  );
}

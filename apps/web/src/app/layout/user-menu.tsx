import { DownOutlined, IdcardOutlined, LogoutOutlined, UserOutlined } from '@ant-design/icons';
import type { UserDto } from '@resi/contract';
import { Avatar, Dropdown, Space, Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { useLogout } from '@/api/logout';
import { HEADER_DROPDOWN } from '@/lib/header-dropdown';

/** Header dropdown: who is signed in, personal info, logout. */
export function UserMenu({ user }: { user: UserDto | null }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const logout = useLogout();
  return (
    <Dropdown
      trigger={['click']}
      {...HEADER_DROPDOWN}
      menu={{
        items: [
          { key: 'personal', icon: <IdcardOutlined />, label: t('layout.personal') },
          { type: 'divider' },
          { key: 'logout', icon: <LogoutOutlined />, label: t('layout.logout'), danger: true },
        ],
        onClick: ({ key }) => {
          if (key === 'personal') void navigate('/user/personal');
          if (key === 'logout') logout.mutate();
        },
      }}
    >
      <button type="button" className="user-menu" data-testid="user-menu">
        <Space size={8}>
          <Avatar size={30} icon={<UserOutlined />} className="user-menu__avatar" />
          <span className="user-menu__email">{user?.email ?? ''}</span>
          {user?.role === 'admin' ? <Tag color="gold">{t('account.role.admin')}</Tag> : null}
          <DownOutlined className="user-menu__caret" />
        </Space>
      </button>
    </Dropdown>
  );
}

import { Card } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { UserDetailDrawer } from '../components/user-detail-drawer';
import { UserList } from '../components/user-list';

/** /manage/user: every user (filters, sorting, bulk actions, export), and one user's detail in a drawer. */
export default function UserManagementPage() {
  const { t } = useTranslation();
  const [openId, setOpenId] = useState<number | null>(null);
  return (
    <Card variant="borderless" className="surface-card" title={t('users.listTitle')} data-testid="user-management">
      <UserList onOpen={(u) => setOpenId(u.id)} />
      <UserDetailDrawer userId={openId} onClose={() => setOpenId(null)} />
    </Card>
  );
}

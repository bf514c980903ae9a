import { Tag } from 'antd';
import { useTranslation } from 'react-i18next';

export function UserStatusTag({ status }: { status: 'active' | 'disabled' }) {
  const { t } = useTranslation();
  return (
    <Tag color={status === 'active' ? 'green' : 'red'} data-testid="user-status">
      {t(`users.status.${status}`)}
    </Tag>
  );
}

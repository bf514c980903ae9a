import type { StaticInventoryStatus } from '@resi/contract';
import { Tag } from 'antd';
import { useTranslation } from 'react-i18next';

const COLORS: Record<StaticInventoryStatus, string> = {
  free: 'green',
  reserved: 'gold',
  allocated: 'blue',
  grace: 'orange',
  cooldown: 'purple',
  retired: 'default',
};

export function InventoryStatusTag({ status }: { status: StaticInventoryStatus }) {
  const { t } = useTranslation();
  return <Tag color={COLORS[status]}>{t(`staticAdmin.status.${status}`)}</Tag>;
}

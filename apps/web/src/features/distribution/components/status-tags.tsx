import type { CommissionState, PayoffStatus } from '@resi/contract';
import { Tag } from 'antd';
import { useTranslation } from 'react-i18next';

const COMMISSION_COLORS: Record<CommissionState, string> = { pending: 'gold', available: 'green', voided: 'default', reversed: 'red' };
const PAYOFF_COLORS: Record<PayoffStatus, string> = { pending: 'gold', approved: 'blue', paid: 'green', rejected: 'red' };

export function CommissionStateTag({ state }: { state: CommissionState }) {
  const { t } = useTranslation();
  return <Tag color={COMMISSION_COLORS[state]}>{t(`distributionManage.commissionState.${state}`)}</Tag>;
}

export function PayoffStatusTag({ status }: { status: PayoffStatus }) {
  const { t } = useTranslation();
  return (
    <Tag color={PAYOFF_COLORS[status]} data-testid="payoff-status">
      {t(`distributionManage.payoffStatus.${status}`)}
    </Tag>
  );
}

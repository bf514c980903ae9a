import { ClockCircleOutlined } from '@ant-design/icons';
import { Card, Result } from 'antd';
import { useTranslation } from 'react-i18next';

/**
 * Honest state for a screen whose function is not built yet: it says so instead of showing made-up data.
 * `feature` is an i18n key naming what will be here.
 */
export function NotAvailable({ feature }: { feature: string }) {
  const { t } = useTranslation();
  return (
    <Card variant="borderless" className="surface-card" data-testid="not-available">
      <Result
        icon={<ClockCircleOutlined style={{ color: 'var(--brand-color)' }} />}
        title={t('common.notAvailable.title')}
        subTitle={t('common.notAvailable.description', { feature: t(feature) })}
      />
    </Card>
  );
}

import { normalizeLang, type DistributionInfo } from '@resi/contract';
import { Alert, Card, Tooltip } from 'antd';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { formatCount, formatMoney, INTL_LOCALE, numberFormat } from '@/lib/format';

function Figure({ name, value, testId }: { name: string; value: ReactNode; testId: string }) {
  const { t } = useTranslation();
  return (
    <Tooltip title={t(`distributionManage.figures.${name}Hint`)}>
      <div className="dist-figure">
        <span className="muted">{t(`distributionManage.figures.${name}`)}</span>
        <span className="dist-figure__value" data-testid={testId}>
          {value}
        </span>
      </div>
    </Tooltip>
  );
}

/**
 * The caller's ledger as figures (docs/business-rules.md#commission). Owed shows only when a reversal
 * came after the money was held or paid: it is what later commission settles before any is available.
 */
export function BalanceFigures({ info }: { info: DistributionInfo }) {
  const { t, i18n } = useTranslation();
  const lang = normalizeLang(i18n.language);
  const money = (v: number) => formatMoney(v, info.currency, lang);
  const count = (v: number) => formatCount(v, lang);
  return (
    <Card variant="borderless" className="surface-card" title={t('distributionManage.figures.title')} data-testid="distribution-figures">
      <div className="dist-figures">
        <Figure name="available" value={money(info.available)} testId="distribution-available" />
        <Figure name="pending" value={money(info.pending)} testId="distribution-pending" />
        <Figure name="held" value={money(info.held)} testId="distribution-held" />
        <Figure name="paid" value={money(info.paid)} testId="distribution-paid" />
        <Figure name="rate" value={`${numberFormat(INTL_LOCALE[lang], { maximumFractionDigits: 2 }).format(info.rate)}%`} testId="distribution-rate" />
        <Figure name="referrals" value={`${count(info.payingReferrals)} / ${count(info.referrals)}`} testId="distribution-referrals" />
      </div>
      {info.owed > 0 ? (
        <Alert
          type="warning"
          showIcon
          className="dist-owed"
          title={<span data-testid="distribution-owed">{t('distributionManage.figures.owed', { amount: money(info.owed) })}</span>}
          description={t('distributionManage.figures.owedHint')}
        />
      ) : null}
    </Card>
  );
}

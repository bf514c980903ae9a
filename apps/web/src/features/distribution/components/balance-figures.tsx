import { normalizeLang, type DistributionInfo } from '@resi/contract';
import { Alert, Card, Skeleton, Tooltip } from 'antd';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { formatCount, formatMoney, INTL_LOCALE, numberFormat } from '@/lib/format';

/** `testId` marks the value once it is known, not its placeholder. */
function Figure({ name, value, testId }: { name: string; value: ReactNode; testId?: string }) {
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
 * Without `info` (still loading) the card stands in its final shape, each figure a placeholder, so that
 * nothing below it moves when the figures come (docs/console.md#loading-empty-and-error).
 */
export function BalanceFigures({ info }: { info?: DistributionInfo }) {
  const { t, i18n } = useTranslation();
  const lang = normalizeLang(i18n.language);
  const money = (i: DistributionInfo, v: number) => formatMoney(v, i.currency, lang);
  const count = (v: number) => formatCount(v, lang);
  const value = (shown: (info: DistributionInfo) => string) => (info ? shown(info) : <Skeleton.Input active size="small" className="dist-figure__loading" />);
  return (
    <Card variant="borderless" className="surface-card" title={t('distributionManage.figures.title')} data-testid="distribution-figures" aria-busy={!info}>
      <div className="dist-figures">
        <Figure name="available" value={value((i) => money(i, i.available))} testId={info && 'distribution-available'} />
        <Figure name="pending" value={value((i) => money(i, i.pending))} testId={info && 'distribution-pending'} />
        <Figure name="held" value={value((i) => money(i, i.held))} testId={info && 'distribution-held'} />
        <Figure name="paid" value={value((i) => money(i, i.paid))} testId={info && 'distribution-paid'} />
        <Figure name="rate" value={value((i) => `${numberFormat(INTL_LOCALE[lang], { maximumFractionDigits: 2 }).format(i.rate)}%`)} testId={info && 'distribution-rate'} />
        <Figure name="referrals" value={value((i) => `${count(i.payingReferrals)} / ${count(i.referrals)}`)} testId={info && 'distribution-referrals'} />
      </div>
      {info && info.owed > 0 ? (
        <Alert
          type="warning"
          showIcon
          className="dist-owed"
          title={<span data-testid="distribution-owed">{t('distributionManage.figures.owed', { amount: money(info, info.owed) })}</span>}
          description={t('distributionManage.figures.owedHint')}
        />
      ) : null}
    </Card>
  );
}

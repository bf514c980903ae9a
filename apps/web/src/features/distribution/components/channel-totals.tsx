import { type ChannelStats, normalizeLang } from '@resi/contract';
import { useTranslation } from 'react-i18next';
import { formatMoney, INTL_LOCALE, numberFormat } from '@/lib/format';
import { funnelRates } from './channel-funnel';

const FIGURES = [
  ['visits', 'visits'],
  ['registrations', 'registrations'],
  ['payingUsers', 'paying'],
  ['orders', 'orders'],
  ['revenue', 'revenue'],
] as const;
const RATES = ['visitToRegistration', 'registrationToPaying', 'visitToPaying'] as const;

/** The window's totals as figures, and the funnel's conversion rates over them ("—" where a step had nobody). */
export function ChannelTotals({ stats }: { stats: ChannelStats }) {
  const { t, i18n } = useTranslation();
  const lang = normalizeLang(i18n.language);
  const number = numberFormat(INTL_LOCALE[lang]);
  const percent = numberFormat(INTL_LOCALE[lang], { style: 'percent', maximumFractionDigits: 1 });
  const rates = funnelRates(stats.totals);
  return (
    <div className="statistics-summary__figures" data-testid="channel-totals">
      {FIGURES.map(([figure, id]) => (
        <div key={figure} className="statistics-summary__figure">
          <span className="muted">{t(`channels.figures.${figure}`)}</span>
          <span className="statistics-summary__value" data-testid={`channel-total-${id}`}>
            {figure === 'revenue' ? formatMoney(stats.totals.revenue, stats.currency, lang) : number.format(stats.totals[figure])}
          </span>
        </div>
      ))}
      {RATES.map((rate) => (
        <div key={rate} className="statistics-summary__figure">
          <span className="muted">{t(`channels.rates.${rate}`)}</span>
          <span className="statistics-summary__value" data-testid={`channel-rate-${rate}`} title={rates[rate] === null ? t('channels.rates.none') : undefined}>
            {rates[rate] === null ? '—' : percent.format(rates[rate])}
          </span>
        </div>
      ))}
    </div>
  );
}

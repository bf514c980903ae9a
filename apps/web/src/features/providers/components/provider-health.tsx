import { WarningOutlined } from '@ant-design/icons';
import type { Lang, ProviderHealth } from '@resi/contract';
import { Tag, Tooltip } from 'antd';
import { useTranslation } from 'react-i18next';
import { formatCount, formatDateTime, INTL_LOCALE, numberFormat } from '@/lib/format';

const STATE_COLOR: Record<ProviderHealth['state'], string> = { up: 'green', probing: 'gold', down: 'red' };

/** The breaker's state as a coloured tag, the last error (and since when) in its tooltip; the exit-country warning beside it. */
export function ProviderHealthTags({ health }: { health: ProviderHealth }) {
  const { t, i18n } = useTranslation();
  const since = formatDateTime(health.since);
  // The server names a failure by its gateway code (docs/gateway.md#refusals-and-failures): said in words, the code kept beside it.
  const error = health.lastError && i18n.exists(`providers.errors.${health.lastError}`) ? `${t(`providers.errors.${health.lastError}`)} (${health.lastError})` : health.lastError;
  const tip = [error, since ? t('providers.health.since', { time: since }) : null].filter(Boolean).join(' · ');
  return (
    <div className="cell-user">
      <span>
        <Tooltip title={tip || undefined}>
          <Tag color={STATE_COLOR[health.state]} data-testid="provider-health">
            {t(`providers.health.${health.state}`)}
          </Tag>
        </Tooltip>
      </span>
      {health.countryMismatch ? (
        <span className="cell-user__tags">
          <Tooltip title={health.probeCountry ? t('providers.health.mismatchHelp', { country: health.probeCountry }) : undefined}>
            <Tag color="volcano" icon={<WarningOutlined />} data-testid="provider-mismatch">
              {t('providers.health.mismatch')}
            </Tag>
          </Tooltip>
        </span>
      ) : null}
    </div>
  );
}

const ms = (value: number | null, lang: Lang) => (value === null ? '—' : `${formatCount(Math.round(value), lang)} ms`);

/** Share of dials that succeeded over the last window, with the connect time's median and 95th percentile under it (none: no dials in it). */
export function ProviderDials({ health, lang }: { health: ProviderHealth; lang: Lang }) {
  const { t } = useTranslation();
  const rate = health.successRate === null ? '—' : numberFormat(INTL_LOCALE[lang], { style: 'percent', maximumFractionDigits: 1 }).format(health.successRate);
  return (
    <div className="cell-user" data-testid="provider-dials">
      <span className="nowrap">{rate}</span>
      {health.connectP50Ms === null && health.connectP95Ms === null ? (
        <span className="muted nowrap">{t('providers.health.noDials')}</span>
      ) : (
        <span className="muted nowrap">{t('providers.health.connect', { p50: ms(health.connectP50Ms, lang), p95: ms(health.connectP95Ms, lang) })}</span>
      )}
    </div>
  );
}

import { normalizeLang } from '@resi/contract';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import { useSite } from '@/api/get-site';
import { localizedDocUrl } from '@/lib/legal';
import { AlipayCircleOutlined, CreditCardOutlined, CustomerServiceOutlined, DollarCircleOutlined, Icon, ReadOutlined } from './lite/icons';

/** The methods the tips panel may advertise, in its order, as tags. */
const TAGS = {
  'usdt-trc20': { icon: DollarCircleOutlined, color: 'green', label: () => 'USDT' },
  alipay: { icon: AlipayCircleOutlined, color: 'blue', label: (t: TFunction) => t('tips.alipay') },
  card: { icon: CreditCardOutlined, color: 'purple', label: (t: TFunction) => t('tips.card') },
} as const;

/**
 * The tips panel (docs/console.md#account-home): read the tutorial first; USDT, AliPay and credit card;
 * custom services via online support. Only the methods checkout offers now are named (none: no such
 * line), and the support line needs a support link. Drawn without antd: it is on the login page too
 * (docs/console.md#first-load); its tags look like antd's coloured Tag.
 */
export function TipsPanel({ variant = 'card' }: { variant?: 'card' | 'hero' }) {
  const { t, i18n } = useTranslation();
  const site = useSite();
  const lang = normalizeLang(i18n.language);
  const tutorial = site.tutorialUrl ? localizedDocUrl(site.tutorialUrl, lang) : '';
  const advertised = (Object.keys(TAGS) as (keyof typeof TAGS)[]).filter((m) => site.payMethods.includes(m));
  return (
    <div className={`tips-panel tips-panel--${variant}`} data-testid="tips-panel">
      <div className="tips-panel__title">{t('tips.title')}</div>
      <ol className="tips-panel__list">
        <li>
          <Icon icon={ReadOutlined} className="tips-panel__icon" />
          <span>
            {t('tips.tutorial')}{' '}
            {tutorial ? (
              <a href={tutorial} target="_blank" rel="noopener noreferrer">
                {t('tips.tutorialLink')}
              </a>
            ) : null}
          </span>
        </li>
        {advertised.length > 0 ? (
          <li data-testid="tips-pay-methods">
            <Icon icon={DollarCircleOutlined} className="tips-panel__icon" />
            <span>
              {t('tips.payment')}
              <span className="tips-panel__tags">
                {advertised.map((m) => (
                  <span key={m} className={`lite-tag lite-tag--${TAGS[m].color}`}>
                    <Icon icon={TAGS[m].icon} />
                    <span>{TAGS[m].label(t)}</span>
                  </span>
                ))}
              </span>
            </span>
          </li>
        ) : null}
        {site.supportUrl ? (
          <li>
            <Icon icon={CustomerServiceOutlined} className="tips-panel__icon" />
            <span>
              {t('tips.custom')}{' '}
              <a href={site.supportUrl} target="_blank" rel="noopener noreferrer">
                {t('tips.supportLink')}
              </a>
            </span>
          </li>
        ) : null}
      </ol>
    </div>
  );
}

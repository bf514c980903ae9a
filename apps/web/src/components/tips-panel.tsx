import { AlipayCircleOutlined, CreditCardOutlined, CustomerServiceOutlined, DollarCircleOutlined, ReadOutlined } from '@ant-design/icons';
import { normalizeLang } from '@resi/contract';
import { Tag } from 'antd';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import { useSite } from '@/api/get-site';
import { localizedDocUrl } from '@/lib/legal';

/** The methods the tips panel may advertise, in its order, as tags. */
const TAGS = {
  'usdt-trc20': { icon: <DollarCircleOutlined />, color: 'green', label: () => 'USDT' },
  alipay: { icon: <AlipayCircleOutlined />, color: 'blue', label: (t: TFunction) => t('tips.alipay') },
  card: { icon: <CreditCardOutlined />, color: 'purple', label: (t: TFunction) => t('tips.card') },
} as const;

/**
 * The tips panel (docs/console.md#account-home): read the tutorial first; USDT, AliPay and credit card;
 * custom services via online support. Only the methods checkout offers now are named (none: no such
 * line), and the support line needs a support link.
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
          <ReadOutlined className="tips-panel__icon" />
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
            <DollarCircleOutlined className="tips-panel__icon" />
            <span>
              {t('tips.payment')}
              <span className="tips-panel__tags">
                {advertised.map((m) => (
                  <Tag key={m} icon={TAGS[m].icon} color={TAGS[m].color}>
                    {TAGS[m].label(t)}
                  </Tag>
                ))}
              </span>
            </span>
          </li>
        ) : null}
        {site.supportUrl ? (
          <li>
            <CustomerServiceOutlined className="tips-panel__icon" />
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

import { AlipayCircleOutlined, CreditCardOutlined, CustomerServiceOutlined, DollarCircleOutlined, ReadOutlined } from '@ant-design/icons';
import { normalizeLang } from '@resi/contract';
import { Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import { useSite } from '@/api/get-site';
import { localizedDocUrl } from '@/lib/legal';

/**
 * The tips panel (docs/console.md#account-home): read the tutorial first; USDT, AliPay and credit card;
 * custom services via online support.
 */
export function TipsPanel({ variant = 'card' }: { variant?: 'card' | 'hero' }) {
  const { t, i18n } = useTranslation();
  const site = useSite();
  const lang = normalizeLang(i18n.language);
  const tutorial = site.tutorialUrl ? localizedDocUrl(site.tutorialUrl, lang) : '';
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
        <li>
          <DollarCircleOutlined className="tips-panel__icon" />
          <span>
            {t('tips.payment')}
            <span className="tips-panel__tags">
              <Tag icon={<DollarCircleOutlined />} color="green">
                USDT
              </Tag>
              <Tag icon={<AlipayCircleOutlined />} color="blue">
                {t('tips.alipay')}
              </Tag>
              <Tag icon={<CreditCardOutlined />} color="purple">
                {t('tips.card')}
              </Tag>
            </span>
          </span>
        </li>
        <li>
          <CustomerServiceOutlined className="tips-panel__icon" />
          <span>
            {t('tips.custom')}{' '}
            {site.supportUrl ? (
              <a href={site.supportUrl} target="_blank" rel="noopener noreferrer">
                {t('tips.supportLink')}
              </a>
            ) : null}
          </span>
        </li>
      </ol>
    </div>
  );
}

import { CheckOutlined } from '@ant-design/icons';
import { normalizeLang, type PackageDto } from '@resi/contract';
import { Badge, Button, Card } from 'antd';
import { useTranslation } from 'react-i18next';
import { formatBytes, formatMoney, localizedName, pricePerGb } from '@/lib/format';

const BADGE_COLORS: Record<NonNullable<PackageDto['badge']>, string> = { popular: '#1d4ed8', 'best-value': '#059669', new: '#d97706' };

/** One traffic package: name, traffic, price and price per GB, validity, badge, and "Buy now". */
export function PackageCard({ pkg, onBuy }: { pkg: PackageDto; onBuy: (pkg: PackageDto) => void }) {
  const { t, i18n } = useTranslation();
  const lang = normalizeLang(i18n.language);
  const card = (
    <Card variant="borderless" className={`package-card${pkg.badge === 'popular' ? ' package-card--featured' : ''}`} data-testid={`package-${pkg.id}`}>
      <div className="package-card__name">{localizedName(pkg.name, lang)}</div>
      <div className="package-card__traffic">{formatBytes(pkg.bytes, lang)}</div>
      <div className="package-card__price" data-testid="package-price">
        {formatMoney(pkg.price, pkg.currency, lang)}
      </div>
      <div className="package-card__unit">{t('buy.package.perGb', { price: formatMoney(pricePerGb(pkg.price, pkg.bytes), pkg.currency, lang) })}</div>
      <ul className="package-card__features">
        <li>
          <CheckOutlined /> {t('buy.package.validity', { days: pkg.validityDays })}
        </li>
        <li>
          <CheckOutlined /> {t('buy.package.locations')}
        </li>
        <li>
          <CheckOutlined /> {t('buy.package.protocols')}
        </li>
      </ul>
      <Button type={pkg.badge === 'popular' ? 'primary' : 'default'} size="large" block onClick={() => onBuy(pkg)} data-testid="package-buy">
        {t('buy.package.buy')}
      </Button>
    </Card>
  );
  if (!pkg.badge) return card;
  return (
    <Badge.Ribbon text={t(`commerce.badge.${pkg.badge}`)} color={BADGE_COLORS[pkg.badge]}>
      {card}
    </Badge.Ribbon>
  );
}

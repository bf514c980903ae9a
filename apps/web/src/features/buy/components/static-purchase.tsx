import { ShoppingCartOutlined } from '@ant-design/icons';
import { normalizeLang, STATIC_MAX_QUANTITY, type BusinessDto, type StaticPriceDto, type StaticRegionWithStock } from '@resi/contract';
import { Button, Empty, InputNumber, Radio, Tag, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatMoney, localizedName } from '@/lib/format';
import type { CheckoutItem } from './checkout-modal';

interface StaticPurchaseProps {
  regions: StaticRegionWithStock[];
  businesses: BusinessDto[];
  prices: StaticPriceDto[];
  onBuy: (item: CheckoutItem) => void;
}

/** A choice that survives only while it is still offered; otherwise the first offered one. */
function pick<T>(wanted: T | undefined, offered: readonly T[]): T | undefined {
  return wanted !== undefined && offered.includes(wanted) ? wanted : offered[0];
}

/**
 * Static IPs: region → business line → days → quantity, with the live stock of the pair (docs/business-rules.md#static-residential-ips).
 * Only pairs with a listed price are offered; the order costs the list price × quantity.
 */
export function StaticPurchase({ regions, businesses, prices, onBuy }: StaticPurchaseProps) {
  const { t, i18n } = useTranslation();
  const lang = normalizeLang(i18n.language);
  const [wanted, setWanted] = useState<{ regionId?: number; businessId?: number; days?: number }>({});
  const [quantity, setQuantity] = useState(1);

  const sold = regions.filter((r) => prices.some((p) => p.regionId === r.id));
  if (sold.length === 0) return <Empty description={t('buy.static.empty')} data-testid="static-empty" />;
  const region = sold.find((r) => r.id === pick(wanted.regionId, sold.map((r) => r.id)))!;
  const lines = businesses.filter((b) => prices.some((p) => p.regionId === region.id && p.businessId === b.id));
  const businessId = pick(wanted.businessId, lines.map((b) => b.id));
  const business = lines.find((b) => b.id === businessId);
  const periods = prices.filter((p) => p.regionId === region.id && p.businessId === businessId).sort((a, b) => a.days - b.days);
  const days = pick(wanted.days, periods.map((p) => p.days));
  const price = periods.find((p) => p.days === days);
  const available = (id: number | undefined) => region.stock.find((s) => s.businessId === id)?.available ?? 0;
  const left = available(businessId);
  const max = Math.max(1, Math.min(STATIC_MAX_QUANTITY, left));
  const enough = left > 0 && quantity <= left;

  const stockTag = (n: number) => (n > 0 ? <Tag color="green">{t('buy.static.left', { count: n })}</Tag> : <Tag>{t('buy.static.outOfStock')}</Tag>);

  const buy = () => {
    if (!business || !price || !enough) return;
    onBuy({
      kind: 'static',
      body: { regionId: region.id, businessId: business.id, quantity, days: price.days },
      region: region.name,
      business: business.name,
      unitPrice: price.price,
      currency: price.currency,
    });
  };

  return (
    <div className="static-purchase" data-testid="static-purchase">
      <Typography.Title level={5}>{t('buy.static.region')}</Typography.Title>
      <Radio.Group value={region.id} onChange={(e) => setWanted({ regionId: e.target.value as number })} optionType="button" data-testid="static-regions">
        {sold.map((r) => (
          <Radio.Button key={r.id} value={r.id}>
            {localizedName(r.name, lang)}
          </Radio.Button>
        ))}
      </Radio.Group>

      <Typography.Title level={5}>{t('buy.static.business')}</Typography.Title>
      <Radio.Group value={businessId} onChange={(e) => setWanted({ ...wanted, regionId: region.id, businessId: e.target.value as number })} optionType="button" data-testid="static-businesses">
        {lines.map((b) => (
          <Radio.Button key={b.id} value={b.id}>
            <span data-testid={`static-business-${b.code}`}>
              {localizedName(b.name, lang)} <span className="muted">· {available(b.id) > 0 ? t('buy.static.left', { count: available(b.id) }) : t('buy.static.outOfStock')}</span>
            </span>
          </Radio.Button>
        ))}
      </Radio.Group>

      <Typography.Title level={5}>{t('buy.static.days')}</Typography.Title>
      <Radio.Group value={days} onChange={(e) => setWanted({ ...wanted, regionId: region.id, businessId, days: e.target.value as number })} optionType="button" data-testid="static-days">
        {periods.map((p) => (
          <Radio.Button key={p.days} value={p.days}>
            {t('buy.static.daysOption', { days: p.days, price: formatMoney(p.price, p.currency, lang) })}
          </Radio.Button>
        ))}
      </Radio.Group>

      <Typography.Title level={5}>{t('buy.static.quantity')}</Typography.Title>
      <div className="static-purchase__quantity">
        <InputNumber min={1} max={max} precision={0} value={quantity} onChange={(v) => setQuantity(v ?? 1)} disabled={left === 0} data-testid="static-quantity" />
        <span data-testid="static-stock">{stockTag(left)}</span>
      </div>

      <div className="checkout__total static-purchase__total">
        <span>
          {t('buy.static.perIp')} <strong data-testid="static-unit-price">{price ? formatMoney(price.price, price.currency, lang) : t('commerce.none')}</strong>
        </span>
        <span>
          {t('buy.checkout.total')} <strong data-testid="static-total">{price ? formatMoney(price.price * quantity, price.currency, lang) : t('commerce.none')}</strong>
        </span>
      </div>
      <Button type="primary" size="large" icon={<ShoppingCartOutlined />} disabled={!price || !enough} onClick={buy} data-testid="static-buy">
        {left === 0 ? t('buy.static.outOfStock') : t('buy.package.buy')}
      </Button>
    </div>
  );
}

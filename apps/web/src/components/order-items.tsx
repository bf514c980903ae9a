import { type Lang, normalizeLang, type OrderDto, type OrderItemDto } from '@resi/contract';
import type { TFunction } from 'i18next';
import { Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import { formatBytes, localizedName } from '@/lib/format';

/**
 * What an order bought, from its frozen items (`Basic 10 GB` · `10 GB, 30 days`), kind tagged unless a plain
 * purchase or the list shows the kind in a column of its own (`kindTag={false}`).
 */
export function OrderItems({ order, kindTag = true }: { order: Pick<OrderDto, 'items' | 'kind'>; kindTag?: boolean }) {
  const { t, i18n } = useTranslation();
  const lang = normalizeLang(i18n.language);
  return (
    <div className="order-items">
      {kindTag && order.kind !== 'dynamic' ? <Tag className="order-items__kind">{t(`commerce.orderKind.${order.kind}`)}</Tag> : null}
      {order.items.map((item, i) => (
        <div key={i} className="order-items__line">
          <span className="order-items__name">{localizedName(item.name, lang)}</span>
          <span className="order-items__meta">
            {itemMeta(item, t, lang)}
          </span>
        </div>
      ))}
    </div>
  );
}

function itemMeta(item: OrderItemDto, t: TFunction, lang: Lang): string {
  switch (item.type) {
    case 'traffic':
      return t('commerce.itemMeta', { traffic: formatBytes(item.bytes * item.quantity, lang), days: item.validityDays });
    case 'static':
      return t('commerce.staticItemMeta', { business: localizedName(item.business, lang), quantity: item.quantity, days: item.days });
    case 'static-renew':
      return t('commerce.staticRenewItemMeta', { ip: item.ip, days: item.days });
  }
}

import { normalizeLang, type OrderDto } from '@resi/contract';
import { Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import { formatBytes, localizedName } from '@/lib/format';

/** What an order bought, from its frozen items (`Basic 10 GB` · `10 GB, 30 days`), kind tagged unless a plain purchase. */
export function OrderItems({ order }: { order: Pick<OrderDto, 'items' | 'kind'> }) {
  const { t, i18n } = useTranslation();
  const lang = normalizeLang(i18n.language);
  return (
    <div className="order-items">
      {order.kind !== 'dynamic' ? <Tag className="order-items__kind">{t(`commerce.orderKind.${order.kind}`)}</Tag> : null}
      {order.items.map((item, i) => (
        <div key={i} className="order-items__line">
          <span className="order-items__name">{localizedName(item.name, lang)}</span>
          <span className="order-items__meta">
            {t('commerce.itemMeta', { traffic: formatBytes(item.bytes * item.quantity, lang), days: item.validityDays })}
          </span>
        </div>
      ))}
    </div>
  );
}

import { normalizeLang, PACKAGE_BADGES, packageBody as packageSchema, type PackageDto } from '@resi/contract';
import { Card, Form, InputNumber, Select, Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import { formatBytes, formatMoney, gbToBytes, localizedName, pricePerGb, toMinorUnits } from '@/lib/format';
import { numberRule } from '@/lib/form-rules';
import { useCatalogue } from '../api/get-catalogue';
import { CatalogueCrud } from '../components/catalogue-crud';
import { catalogueCurrency, newPackageValues, packageBody, packageValues, type PackageValues } from '../components/catalogue-values';
import { SortAndEnabledFields } from '../components/common-fields';
import { LocalizedNameFields } from '../components/localized-name-fields';

/** /manage/goods: the rotating-traffic packages customers buy. */
export default function GoodsPage() {
  const { t, i18n } = useTranslation();
  const lang = normalizeLang(i18n.language);
  const currency = catalogueCurrency(useCatalogue('goods').data);

  return (
    <Card variant="borderless" className="surface-card" data-testid="goods-page">
      <CatalogueCrud<'goods', PackageValues>
        resource="goods"
        lead={t('catalogue.goods.lead')}
        toggle
        texts={{ add: t('catalogue.goods.add'), create: t('catalogue.goods.create'), edit: t('catalogue.goods.edit'), deleteConfirm: t('catalogue.goods.deleteConfirm') }}
        newValues={newPackageValues}
        toValues={packageValues}
        toBody={(values) => packageBody(values, currency)}
        columns={[
          { title: t('catalogue.columns.name'), key: 'name', render: (_v, p: PackageDto) => localizedName(p.name, lang) },
          { title: t('catalogue.goods.traffic'), dataIndex: 'bytes', render: (v: number) => formatBytes(v, lang) },
          // The price per GB under the price: the columns fit a laptop's width beside the pinned Actions.
          {
            title: t('catalogue.goods.price'),
            key: 'price',
            className: 'nowrap',
            render: (_v, p: PackageDto) => (
              <div className="cell-payment">
                <span className="cell-payment__amount">{formatMoney(p.price, p.currency, lang)}</span>
                <span className="muted">{t('catalogue.goods.perGbValue', { price: formatMoney(pricePerGb(p.price, p.bytes), p.currency, lang) })}</span>
              </div>
            ),
          },
          { title: t('catalogue.goods.validityDays'), dataIndex: 'validityDays' },
          { title: t('catalogue.goods.badge'), dataIndex: 'badge', render: (b: PackageDto['badge']) => (b ? <Tag color="blue">{t(`commerce.badge.${b}`)}</Tag> : t('commerce.none')) },
          { title: t('catalogue.fields.sort'), dataIndex: 'sort', width: 80 },
        ]}
        fields={
          <>
            <LocalizedNameFields label={t('catalogue.columns.name')} />
            <div className="form-row">
              <Form.Item name="gb" label={t('catalogue.goods.traffic')} rules={[numberRule(packageSchema.shape.bytes, t, gbToBytes)]}>
                <InputNumber min={0} step={1} suffix="GB" className="full-width" data-testid="package-gb" />
              </Form.Item>
              <Form.Item
                name="price"
                label={t('catalogue.goods.priceIn', { currency })}
                rules={[numberRule(packageSchema.shape.price, t, (v) => toMinorUnits(v, currency))]}
              >
                <InputNumber min={0} step={1} precision={2} className="full-width" data-testid="package-price-input" />
              </Form.Item>
              <Form.Item name="validityDays" label={t('catalogue.goods.validityDays')} rules={[numberRule(packageSchema.shape.validityDays, t)]}>
                <InputNumber min={1} max={3650} precision={0} className="full-width" />
              </Form.Item>
            </div>
            <Form.Item name="badge" label={t('catalogue.goods.badge')} extra={t('catalogue.help.badge')}>
              <Select
                allowClear
                placeholder={t('commerce.none')}
                options={PACKAGE_BADGES.map((b) => ({ value: b, label: t(`commerce.badge.${b}`) }))}
              />
            </Form.Item>
            <SortAndEnabledFields sortSchema={packageSchema.shape.sort} />
          </>
        }
      />
      <p className="muted catalogue-note">{t('catalogue.goods.note')}</p>
    </Card>
  );
}

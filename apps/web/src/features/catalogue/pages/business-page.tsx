import {
  businessBody as businessSchema,
  normalizeLang,
  staticPriceBody as staticPriceSchema,
  type BusinessDto,
  type StaticPriceDto,
  type StaticRegionDto,
} from '@resi/contract';
import { Card, Form, Input, InputNumber, Select, Tabs } from 'antd';
import { useTranslation } from 'react-i18next';
import { combineQueries, QueryState } from '@/components/query-state';
import { formatMoney, localizedName, toMinorUnits } from '@/lib/format';
import { numberRule, schemaRule } from '@/lib/form-rules';
import { useCatalogue } from '../api/get-catalogue';
import { CatalogueCrud } from '../components/catalogue-crud';
import {
  businessBody,
  businessValues,
  catalogueCurrency,
  newBusinessValues,
  newStaticPriceValues,
  staticPriceBody,
  staticPriceValues,
  type BusinessValues,
  type StaticPriceValues,
} from '../components/catalogue-values';
import { SortAndEnabledFields } from '../components/common-fields';
import { LocalizedNameFields } from '../components/localized-name-fields';

function BusinessLines() {
  const { t, i18n } = useTranslation();
  const lang = normalizeLang(i18n.language);
  return (
    <CatalogueCrud<'business', BusinessValues>
      resource="business"
      lead={t('catalogue.business.lead')}
      toggle
      texts={{ add: t('catalogue.business.add'), create: t('catalogue.business.create'), edit: t('catalogue.business.edit'), deleteConfirm: t('catalogue.business.deleteConfirm') }}
      newValues={newBusinessValues}
      toValues={businessValues}
      toBody={businessBody}
      columns={[
        { title: t('catalogue.columns.name'), key: 'name', render: (_v, b: BusinessDto) => localizedName(b.name, lang) },
        { title: t('catalogue.business.code'), dataIndex: 'code', render: (v: string) => <span className="mono">{v}</span> },
        { title: t('catalogue.fields.sort'), dataIndex: 'sort', width: 80 },
      ]}
      fields={
        <>
          <Form.Item name="code" label={t('catalogue.business.code')} extra={t('catalogue.help.code')} rules={[schemaRule(businessSchema.shape.code, t)]}>
            <Input maxLength={32} className="code-input" />
          </Form.Item>
          <LocalizedNameFields label={t('catalogue.columns.name')} />
          <SortAndEnabledFields sortSchema={businessSchema.shape.sort} />
        </>
      }
    />
  );
}

/** The prices name their region and business line: both lists load first, or their failure shows instead of "#id". */
function StaticPrices() {
  const names = combineQueries([useCatalogue('static-region'), useCatalogue('business')]);
  return <QueryState query={names}>{([regions, businesses]) => <StaticPriceList regions={regions} businesses={businesses} />}</QueryState>;
}

function StaticPriceList({ regions, businesses }: { regions: StaticRegionDto[]; businesses: BusinessDto[] }) {
  const { t, i18n } = useTranslation();
  const lang = normalizeLang(i18n.language);
  const prices = useCatalogue('static-price').data;
  const currency = catalogueCurrency(prices);
  const regionName = (id: number) => {
    const r = regions.find((x) => x.id === id);
    return r ? localizedName(r.name, lang) : `#${id}`;
  };
  const businessName = (id: number) => {
    const b = businesses.find((x) => x.id === id);
    return b ? localizedName(b.name, lang) : `#${id}`;
  };
  return (
    <CatalogueCrud<'static-price', StaticPriceValues>
      resource="static-price"
      lead={t('catalogue.prices.lead')}
      texts={{ add: t('catalogue.prices.add'), create: t('catalogue.prices.create'), edit: t('catalogue.prices.edit'), deleteConfirm: t('catalogue.prices.deleteConfirm') }}
      newValues={newStaticPriceValues}
      toValues={staticPriceValues}
      toBody={(values) => staticPriceBody(values, currency)}
      modalWidth={520}
      columns={[
        { title: t('catalogue.prices.region'), dataIndex: 'regionId', render: (id: number) => regionName(id) },
        { title: t('catalogue.prices.business'), dataIndex: 'businessId', render: (id: number) => businessName(id) },
        { title: t('catalogue.prices.days'), dataIndex: 'days' },
        { title: t('catalogue.prices.price'), key: 'price', render: (_v, p: StaticPriceDto) => formatMoney(p.price, p.currency, lang) },
      ]}
      fields={
        <>
          <Form.Item name="regionId" label={t('catalogue.prices.region')} rules={[numberRule(staticPriceSchema.shape.regionId, t)]}>
            <Select showSearch={{ optionFilterProp: 'label' }} options={regions.map((r) => ({ value: r.id, label: localizedName(r.name, lang) }))} />
          </Form.Item>
          <Form.Item name="businessId" label={t('catalogue.prices.business')} rules={[numberRule(staticPriceSchema.shape.businessId, t)]}>
            <Select showSearch={{ optionFilterProp: 'label' }} options={businesses.map((b) => ({ value: b.id, label: localizedName(b.name, lang) }))} />
          </Form.Item>
          <div className="form-row">
            <Form.Item name="days" label={t('catalogue.prices.days')} rules={[numberRule(staticPriceSchema.shape.days, t)]}>
              <InputNumber min={1} max={3650} precision={0} className="full-width" />
            </Form.Item>
            <Form.Item name="price" label={t('catalogue.prices.priceIn', { currency })} rules={[numberRule(staticPriceSchema.shape.price, t, (v) => toMinorUnits(v, currency))]}>
              <InputNumber min={0} precision={2} className="full-width" />
            </Form.Item>
          </div>
        </>
      }
    />
  );
}

/** /manage/business: business lines (what static IPs are for) and the static price list. */
export default function BusinessPage() {
  const { t } = useTranslation();
  return (
    <Card variant="borderless" className="surface-card" data-testid="business-page">
      <Tabs
        items={[
          { key: 'business', label: t('catalogue.business.tab'), children: <BusinessLines /> },
          { key: 'prices', label: t('catalogue.prices.tab'), children: <StaticPrices /> },
        ]}
      />
    </Card>
  );
}

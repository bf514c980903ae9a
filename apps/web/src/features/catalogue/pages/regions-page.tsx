import { normalizeLang, regionBody as regionSchema, staticRegionBody as staticRegionSchema, type RegionDto, type StaticRegionDto } from '@resi/contract';
import { Card, Form, Input, InputNumber, Tabs } from 'antd';
import { useTranslation } from 'react-i18next';
import { localizedName } from '@/lib/format';
import { numberRule, schemaRule } from '@/lib/form-rules';
import { CatalogueCrud } from '../components/catalogue-crud';
import {
  newRegionValues,
  newStaticRegionValues,
  regionBody,
  regionValues,
  staticRegionBody,
  staticRegionValues,
  type RegionValues,
  type StaticRegionValues,
} from '../components/catalogue-values';
import { SortAndEnabledFields } from '../components/common-fields';
import { LocalizedNameFields } from '../components/localized-name-fields';

/** `US / ca / losangeles`: where a region sits, as the gateway's username parameters name it. */
export function regionPath(region: { country: string; state?: string | null; city: string | null }): string {
  return [region.country, region.state, region.city].filter(Boolean).join(' / ');
}

function CountryField() {
  const { t } = useTranslation();
  return (
    <Form.Item name="country" label={t('catalogue.regions.country')} extra={t('catalogue.help.country')} rules={[schemaRule(regionSchema.shape.country, t)]}>
      <Input maxLength={2} className="code-input" data-testid="region-country" />
    </Form.Item>
  );
}

function CodeField({ name, label, help }: { name: 'state' | 'city'; label: string; help: string }) {
  const { t } = useTranslation();
  return (
    <Form.Item name={name} label={label} extra={help} rules={[schemaRule(regionSchema.shape[name], t, { optional: true })]}>
      <Input maxLength={32} allowClear />
    </Form.Item>
  );
}

function RotatingRegions() {
  const { t, i18n } = useTranslation();
  const lang = normalizeLang(i18n.language);
  return (
    <CatalogueCrud<'region', RegionValues>
      resource="region"
      lead={t('catalogue.regions.lead')}
      toggle
      texts={{ add: t('catalogue.regions.add'), create: t('catalogue.regions.create'), edit: t('catalogue.regions.edit'), deleteConfirm: t('catalogue.regions.deleteConfirm') }}
      newValues={newRegionValues}
      toValues={regionValues}
      toBody={regionBody}
      columns={[
        { title: t('catalogue.columns.name'), key: 'name', render: (_v, r: RegionDto) => localizedName(r.name, lang) },
        { title: t('catalogue.regions.code'), key: 'code', render: (_v, r: RegionDto) => <span className="mono">{regionPath(r)}</span> },
        { title: t('catalogue.regions.poolSize'), dataIndex: 'poolSize', render: (v: number) => v.toLocaleString() },
        { title: t('catalogue.fields.sort'), dataIndex: 'sort', width: 80 },
      ]}
      fields={
        <>
          <div className="form-row">
            <CountryField />
            <CodeField name="state" label={t('catalogue.regions.state')} help={t('catalogue.help.state')} />
            <CodeField name="city" label={t('catalogue.regions.city')} help={t('catalogue.help.city')} />
          </div>
          <LocalizedNameFields label={t('catalogue.columns.name')} />
          <Form.Item name="poolSize" label={t('catalogue.regions.poolSize')} extra={t('catalogue.help.poolSize')} rules={[numberRule(regionSchema.shape.poolSize, t)]}>
            <InputNumber min={0} precision={0} className="full-width" />
          </Form.Item>
          <SortAndEnabledFields sortSchema={regionSchema.shape.sort} />
        </>
      }
    />
  );
}

function StaticRegions() {
  const { t, i18n } = useTranslation();
  const lang = normalizeLang(i18n.language);
  return (
    <CatalogueCrud<'static-region', StaticRegionValues>
      resource="static-region"
      lead={t('catalogue.staticRegions.lead')}
      toggle
      texts={{
        add: t('catalogue.staticRegions.add'),
        create: t('catalogue.staticRegions.create'),
        edit: t('catalogue.staticRegions.edit'),
        deleteConfirm: t('catalogue.staticRegions.deleteConfirm'),
      }}
      newValues={newStaticRegionValues}
      toValues={staticRegionValues}
      toBody={staticRegionBody}
      columns={[
        { title: t('catalogue.columns.name'), key: 'name', render: (_v, r: StaticRegionDto) => localizedName(r.name, lang) },
        { title: t('catalogue.regions.code'), key: 'code', render: (_v, r: StaticRegionDto) => <span className="mono">{regionPath(r)}</span> },
        { title: t('catalogue.fields.sort'), dataIndex: 'sort', width: 80 },
      ]}
      fields={
        <>
          <div className="form-row">
            <CountryField />
            <Form.Item name="city" label={t('catalogue.regions.city')} extra={t('catalogue.help.city')} rules={[schemaRule(staticRegionSchema.shape.city, t, { optional: true })]}>
              <Input maxLength={32} allowClear />
            </Form.Item>
          </div>
          <LocalizedNameFields label={t('catalogue.columns.name')} />
          <SortAndEnabledFields sortSchema={staticRegionSchema.shape.sort} />
        </>
      }
    />
  );
}

/** /manage/region: rotating-residential exit regions and the static-residential regions. */
export default function RegionsPage() {
  const { t } = useTranslation();
  return (
    <Card variant="borderless" className="surface-card" data-testid="regions-page">
      <Tabs
        items={[
          { key: 'rotating', label: t('catalogue.regions.tab'), children: <RotatingRegions /> },
          { key: 'static', label: t('catalogue.staticRegions.tab'), children: <StaticRegions /> },
        ]}
      />
    </Card>
  );
}

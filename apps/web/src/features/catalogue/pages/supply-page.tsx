import { UPSTREAM_PROTOCOLS, type SupplySettings, type UpstreamDto, upstreamBody as upstreamSchema } from '@resi/contract';
import { Alert, Button, Card, Form, Input, InputNumber, Select, Switch, Tabs, Tag } from 'antd';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { QueryState } from '@/components/query-state';
import { numberRule, schemaRule } from '@/lib/form-rules';
import { notify } from '@/lib/notify';
import { useSaveSupplySettings, useSupplySettings } from '../api/supply-settings';
import { CatalogueCrud } from '../components/catalogue-crud';
import { type UpstreamValues, newUpstreamValues, upstreamBody, upstreamValues } from '../components/supply-values';

function Upstreams() {
  const { t } = useTranslation();
  const region = (u: UpstreamDto) => [u.country, u.state, u.city].filter(Boolean).join(' / ') || t('catalogue.supply.anyRegion');
  return (
    <CatalogueCrud<'upstream', UpstreamValues>
      resource="upstream"
      lead={t('catalogue.supply.upstreamsLead')}
      toggle
      texts={{ add: t('catalogue.supply.add'), create: t('catalogue.supply.create'), edit: t('catalogue.supply.edit'), deleteConfirm: t('catalogue.supply.deleteConfirm') }}
      newValues={newUpstreamValues}
      toValues={upstreamValues}
      toBody={upstreamBody}
      columns={[
        { title: t('catalogue.supply.protocol'), dataIndex: 'protocol', width: 100, render: (p: string) => <Tag>{p.toUpperCase()}</Tag> },
        { title: t('catalogue.supply.address'), key: 'address', render: (_v, u: UpstreamDto) => <span className="mono">{`${u.host}:${u.port}`}</span> },
        { title: t('catalogue.supply.username'), dataIndex: 'username', render: (v: string | null) => v ?? '—' },
        { title: t('catalogue.supply.region'), key: 'region', render: (_v, u: UpstreamDto) => region(u) },
        { title: t('catalogue.supply.remark'), dataIndex: 'remark', render: (v: string | null) => v ?? '' },
      ]}
      fields={
        <>
          <div className="form-row">
            <Form.Item name="protocol" label={t('catalogue.supply.protocol')}>
              <Select options={UPSTREAM_PROTOCOLS.map((p) => ({ value: p, label: p.toUpperCase() }))} />
            </Form.Item>
            <Form.Item name="host" label={t('catalogue.supply.host')} rules={[schemaRule(upstreamSchema.shape.host, t)]}>
              <Input placeholder="us1.supplier.example" />
            </Form.Item>
            <Form.Item name="port" label={t('catalogue.supply.port')} rules={[numberRule(upstreamSchema.shape.port, t)]}>
              <InputNumber min={1} max={65535} precision={0} className="full-width" />
            </Form.Item>
          </div>
          <div className="form-row">
            <Form.Item name="username" label={t('catalogue.supply.username')}>
              <Input autoComplete="off" />
            </Form.Item>
            <Form.Item name="password" label={t('catalogue.supply.password')} extra={t('catalogue.supply.passwordHelp')}>
              <Input.Password autoComplete="new-password" />
            </Form.Item>
          </div>
          <div className="form-row">
            <Form.Item name="country" label={t('catalogue.supply.country')} extra={t('catalogue.help.country')}>
              <Input maxLength={2} className="code-input" />
            </Form.Item>
            <Form.Item name="state" label={t('catalogue.supply.state')} extra={t('catalogue.help.state')}>
              <Input maxLength={32} className="code-input" />
            </Form.Item>
            <Form.Item name="city" label={t('catalogue.supply.city')} extra={t('catalogue.help.city')}>
              <Input maxLength={32} className="code-input" />
            </Form.Item>
          </div>
          <Form.Item name="remark" label={t('catalogue.supply.remark')}>
            <Input maxLength={100} />
          </Form.Item>
          <Form.Item name="enabled" label={t('catalogue.fields.enabled')} valuePropName="checked">
            <Switch />
          </Form.Item>
        </>
      }
    />
  );
}

/** The form only ever holds the saved settings: saving the blanks of a failed load would wipe them. */
function SupplySettingsCard() {
  const settings = useSupplySettings();
  return (
    <Card variant="borderless" className="surface-card">
      <QueryState query={settings} rows={4}>
        {(saved) => <SupplySettingsForm saved={saved} />}
      </QueryState>
    </Card>
  );
}

function SupplySettingsForm({ saved }: { saved: SupplySettings }) {
  const { t } = useTranslation();
  const save = useSaveSupplySettings();
  const [form] = Form.useForm<SupplySettings>();
  useEffect(() => {
    form.setFieldsValue(saved);
  }, [saved, form]);
  const submit = (values: SupplySettings) => save.mutate({ template: values.template.trim(), directEgress: values.directEgress }, { onSuccess: (res) => notify.success(res.message || t('catalogue.saved')) });
  return (
    <Form<SupplySettings> name="supply" form={form} layout="vertical" onFinish={submit} initialValues={saved} data-testid="supply-settings">
      <Form.Item name="template" label={t('catalogue.supply.template')} extra={t('catalogue.supply.templateHelp')}>
        <Input className="mono" placeholder="http://USER[-country-{country}][-state-{state}]-session-{session}:PASS@gate.supplier.example:7000" />
      </Form.Item>
      <Form.Item name="directEgress" label={t('catalogue.supply.direct')} valuePropName="checked" extra={t('catalogue.supply.directHelp')}>
        <Switch />
      </Form.Item>
      <Button type="primary" htmlType="submit" loading={save.isPending}>
        {t('catalogue.save')}
      </Button>
    </Form>
  );
}

/** Admin: where rotating traffic exits — upstream proxies by region, a provider template, direct egress. */
export default function SupplyPage() {
  const { t } = useTranslation();
  return (
    <>
      <Alert type="info" showIcon className="page-lead" title={t('catalogue.supply.lead')} />
      <Tabs
        items={[
          { key: 'upstreams', label: t('catalogue.supply.upstreams'), children: <Upstreams /> },
          { key: 'settings', label: t('catalogue.supply.settings'), children: <SupplySettingsCard /> },
        ]}
      />
    </>
  );
}

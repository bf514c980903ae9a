import { supplySettings as settingsSchema, type SupplySettings } from '@resi/contract';
import { Button, Card, Col, Form, Input, InputNumber, Row, Switch } from 'antd';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { QueryState } from '@/components/query-state';
import { numberRule, schemaRule } from '@/lib/form-rules';
import { notify } from '@/lib/notify';
import { useSupplySettings } from '../api/get-supply-settings';
import { useSaveSupplySettings } from '../api/save-supply-settings';

/** The gateway's own settings beside the providers. The form only ever holds the saved ones: saving the blanks of a failed load would wipe them. */
export function SupplySettingsCard() {
  const { t } = useTranslation();
  const settings = useSupplySettings();
  return (
    <Card variant="borderless" className="surface-card" title={t('providers.settings.title')}>
      <QueryState query={settings} rows={4} errorTitle={t('providers.settings.loadFailed')}>
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
  const submit = (values: SupplySettings) =>
    save.mutate({ directEgress: values.directEgress, checkUrl: values.checkUrl.trim(), probeSeconds: values.probeSeconds }, { onSuccess: (res) => notify.success(res.message || t('providers.saved')) });
  return (
    <Form<SupplySettings> name="supply" form={form} layout="vertical" requiredMark={false} onFinish={submit} initialValues={saved} data-testid="supply-settings">
      <Row gutter={[16, 0]}>
        <Col xs={24} md={16}>
          <Form.Item name="checkUrl" label={t('providers.settings.checkUrl')} extra={t('providers.settings.checkUrlHelp')} rules={[schemaRule(settingsSchema.shape.checkUrl, t)]}>
            <Input className="mono" maxLength={500} placeholder="https://ipinfo.io/json" data-testid="supply-check-url" />
          </Form.Item>
        </Col>
        <Col xs={24} md={8}>
          <Form.Item name="probeSeconds" label={t('providers.settings.probeSeconds')} extra={t('providers.settings.probeSecondsHelp')} rules={[numberRule(settingsSchema.shape.probeSeconds, t)]}>
            <InputNumber min={15} max={3600} precision={0} suffix={t('providers.settings.seconds')} className="full-width" data-testid="supply-probe-seconds" />
          </Form.Item>
        </Col>
      </Row>
      <Form.Item name="directEgress" label={t('providers.settings.direct')} valuePropName="checked" extra={t('providers.settings.directHelp')}>
        <Switch data-testid="supply-direct" />
      </Form.Item>
      <Button type="primary" htmlType="submit" loading={save.isPending} data-testid="supply-save">
        {t('providers.settings.save')}
      </Button>
    </Form>
  );
}

import { BellOutlined, UndoOutlined } from '@ant-design/icons';
import { ALERT_DEFAULTS, ALERT_THRESHOLDS_MAX, alertSettingsBody, normalizeLang, type AlertSettingsDto } from '@resi/contract';
import { Button, Card, Col, Form, Row, Select, Space, Typography, type FormRule } from 'antd';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import { QueryState } from '@/components/query-state';
import { formatBytes } from '@/lib/format';
import type { FieldSchema } from '@/lib/form-rules';
import { notify } from '@/lib/notify';
import { useAlertSettings } from '../api/get-alert-settings';
import { useSaveAlertSettings } from '../api/save-alert-settings';
import { balanceBytes, percents, toAlertBody, toAlertForm, type AlertFormValues } from './alert-settings-values';

/** Offered in each list's drop-down; any other value can be typed. */
const SUGGESTED = { balanceGb: ['1', '5', '10', '50'], balancePercentLeft: ['10', '20', '50'], accountCapPercent: ['50', '80', '90', '100'] };

/** A list checked by the contract's own schema once converted to what the API takes (bytes, whole percents). */
function listRule(schema: FieldSchema, convert: (tags: string[]) => number[], t: TFunction): FormRule {
  return {
    validator: async (_rule, value: string[] | undefined) => {
      const result = schema.safeParse(convert(value ?? []));
      if (!result.success) throw new Error(t(result.error.issues[0]?.message ?? 'common.form.invalid'));
    },
  };
}

/**
 * Usage alerts (DESIGN §14, docs/business-rules.md#usage-alerts): the balance thresholds in GB, the percents of the
 * last purchase and of proxy accounts' caps. Each crossing shows in the header's bell, is mailed and sent to
 * webhooks. While the settings load the form stands in its final shape, disabled.
 */
export function AlertSettingsCard() {
  const { t } = useTranslation();
  const settings = useAlertSettings();
  return (
    <Card
      variant="borderless"
      className="surface-card"
      title={
        <Space>
          <BellOutlined />
          {t('alerts.settings.title')}
        </Space>
      }
      data-testid="alert-settings"
    >
      <Typography.Paragraph type="secondary">{t('alerts.settings.lead')}</Typography.Paragraph>
      {/* Keyed apart: the loaded form is a new form, taking the saved values as its initial ones. */}
      <QueryState query={settings} placeholder={<AlertSettingsForm key="placeholder" />} errorTitle={t('alerts.settings.loadFailed')}>
        {(saved) => <AlertSettingsForm key="loaded" saved={saved} />}
      </QueryState>
    </Card>
  );
}

function AlertSettingsForm({ saved }: { saved?: AlertSettingsDto }) {
  const { t, i18n } = useTranslation();
  const lang = normalizeLang(i18n.language);
  const [form] = Form.useForm<AlertFormValues>();
  const save = useSaveAlertSettings();
  const shape = alertSettingsBody.shape;
  const savedBytes = saved?.balanceBytesLeft ?? [];
  const list = (values: readonly (number | string)[], unit: (v: number) => string) => (values.length === 0 ? t('alerts.settings.none') : values.map((v) => unit(Number(v))).join(t('alerts.settings.separator')));
  const percent = (v: number) => `${v}%`;

  const submit = (values: AlertFormValues) => {
    if (!saved) return;
    save.mutate(toAlertBody(values, saved), {
      onSuccess: (res) => {
        notify.success(res.message || t('alerts.settings.saved'));
        form.setFieldsValue(toAlertForm(res.data));
      },
    });
  };

  // `unit` follows the number as written: ' GB' with its space, '%' without.
  const field = (name: keyof AlertFormValues, label: string, unit: string, defaults: string, rule: FormRule) => (
    <Col xs={24} md={8}>
      <Form.Item name={name} label={label} extra={t('alerts.settings.default', { value: defaults })} rules={[rule]}>
        <Select
          mode="tags"
          tokenSeparators={[',', ' ', '，']}
          maxCount={ALERT_THRESHOLDS_MAX}
          options={SUGGESTED[name].map((value) => ({ value, label: `${value}${unit}` }))}
          labelRender={({ value }) => `${String(value)}${unit}`}
          placeholder={t('alerts.settings.off')}
          className="full-width"
          data-testid={`alert-${name}`}
        />
      </Form.Item>
    </Col>
  );

  return (
    <Form<AlertFormValues>
      form={form}
      name="alert-settings"
      layout="vertical"
      requiredMark={false}
      disabled={!saved}
      initialValues={saved ? toAlertForm(saved) : { balanceGb: [], balancePercentLeft: [], accountCapPercent: [] }}
      onFinish={submit}
    >
      <Row gutter={[24, 0]}>
        {field('balanceGb', t('alerts.settings.balanceGb'), ' GB', list(ALERT_DEFAULTS.balanceBytesLeft, (b) => formatBytes(b, lang)), listRule(shape.balanceBytesLeft, (tags) => balanceBytes(tags, savedBytes), t))}
        {field('balancePercentLeft', t('alerts.settings.percentLeft'), '%', list(ALERT_DEFAULTS.balancePercentLeft, percent), listRule(shape.balancePercentLeft, percents, t))}
        {field('accountCapPercent', t('alerts.settings.capPercent'), '%', list(ALERT_DEFAULTS.accountCapPercent, percent), listRule(shape.accountCapPercent, percents, t))}
      </Row>
      <Typography.Paragraph type="secondary" className="alert-settings__hint">
        {t('alerts.settings.hint')}
      </Typography.Paragraph>
      <Space wrap>
        <Button type="primary" htmlType="submit" loading={save.isPending} data-testid="alert-save">
          {t('alerts.settings.save')}
        </Button>
        <Button
          icon={<UndoOutlined />}
          onClick={() => form.setFieldsValue(toAlertForm(ALERT_DEFAULTS))}
          data-testid="alert-defaults"
        >
          {t('alerts.settings.restoreDefaults')}
        </Button>
      </Space>
    </Form>
  );
}

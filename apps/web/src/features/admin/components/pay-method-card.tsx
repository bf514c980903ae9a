import { DeleteOutlined, UndoOutlined } from '@ant-design/icons';
import { orderDto, type PayConfigDto } from '@resi/contract';
import { Alert, Button, Card, Form, Input, Switch, Tag, Typography, type FormRule } from 'antd';
import type { TFunction } from 'i18next';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { PayMethodLabel } from '@/components/pay-method-label';
import { schemaRule } from '@/lib/form-rules';
import { notify } from '@/lib/notify';
import { useSavePayConfig } from '../api/save-pay-config';
import { initialPayConfigValues, payConfigBody, secretFields, secretState, settingFields, type PayConfigValues } from './pay-config-form';

/** Long values (PEM keys, instructions) are typed in a text area. */
const MULTILINE = new Set(['instructionsEn', 'instructionsZhCn', 'instructionsZh', 'alipayPublicKey', 'privateKey']);

const TRON_ADDRESS = /^T[1-9A-HJ-NP-Za-km-z]{33}$/;

function fieldRules(field: string, t: TFunction): FormRule[] {
  if (field === 'currency') return [schemaRule(orderDto.shape.currency, t, { optional: true })];
  if (field === 'address') return [{ pattern: TRON_ADDRESS, message: t('admin.pay.invalidAddress') }];
  if (field === 'apiBase' || field === 'gateway') return [{ type: 'url', message: t('admin.pay.invalidUrl') }];
  return [];
}

/** Where the provider sends its notifications, for the admin to paste into the provider's dashboard. */
export function notifyUrl(origin: string, method: string): string {
  return `${origin}/api/pay/notify/${method}`;
}

/** One payment method: on/off, plain settings, secrets (masked, replace or clear), with help per field. */
export function PayMethodCard({ config }: { config: PayConfigDto }) {
  const { t } = useTranslation();
  const [form] = Form.useForm<PayConfigValues>();
  const save = useSavePayConfig();
  const [cleared, setCleared] = useState<ReadonlySet<string>>(new Set());
  const method = config.method;
  const secrets = secretFields(method);
  const settings = settingFields(method);

  const toggleClear = (field: string) => {
    const next = new Set(cleared);
    if (next.has(field)) next.delete(field);
    else {
      next.add(field);
      form.setFieldValue(['secrets', field], '');
    }
    setCleared(next);
  };

  const submit = (values: PayConfigValues) => {
    save.mutate(payConfigBody(method, values, cleared), {
      onSuccess: (res) => {
        notify.success(res.message || t('admin.pay.saved'));
        setCleared(new Set());
        form.setFieldsValue(initialPayConfigValues(res.data));
      },
    });
  };

  const status = !config.available ? (
    <Tag color="red">{t('admin.pay.status.unavailable')}</Tag>
  ) : config.enabled ? (
    <Tag color="green">{t('admin.pay.status.enabled')}</Tag>
  ) : (
    <Tag>{t('admin.pay.status.disabled')}</Tag>
  );

  return (
    <Card
      variant="borderless"
      className={`surface-card pay-config-card${config.available ? '' : ' pay-config-card--unavailable'}`}
      title={<PayMethodLabel method={method} />}
      extra={status}
      data-testid={`pay-config-${method}`}
    >
      <Typography.Paragraph type="secondary">{t(`admin.pay.about.${method}`)}</Typography.Paragraph>
      {!config.available ? (
        <Alert type="error" showIcon title={method === 'sandbox' ? t('admin.pay.unavailableSandbox') : t('admin.pay.unavailable')} className="pay-config-card__alert" />
      ) : null}
      {config.needsReentry ? <Alert type="warning" showIcon title={t('admin.pay.needsReentry')} className="pay-config-card__alert" data-testid={`pay-reentry-${method}`} /> : null}
      {method === 'card' ? (
        <Alert
          type="info"
          showIcon
          className="pay-config-card__alert"
          title={t('admin.pay.webhookUrl')}
          description={
            <Typography.Text code copyable={{ tooltips: [t('commerce.copy'), t('commerce.copied')] }}>
              {notifyUrl(window.location.origin, method)}
            </Typography.Text>
          }
        />
      ) : null}
      <Form<PayConfigValues>
        name={`pay-config-${config.method}`}
        form={form}
        layout="vertical"
        initialValues={initialPayConfigValues(config)}
        onFinish={submit}
        disabled={!config.available}
        requiredMark={false}
        className="pay-config-form"
      >
        <Form.Item name="enabled" label={t('admin.pay.enabled')} valuePropName="checked">
          <Switch data-testid={`pay-enabled-${method}`} />
        </Form.Item>
        {settings.map((field) => (
          <Form.Item key={field} name={['settings', field]} label={t(`admin.pay.fields.${field}`)} extra={t(`admin.pay.help.${field}`)} rules={fieldRules(field, t)}>
            {MULTILINE.has(field) ? <Input.TextArea autoSize={{ minRows: 2, maxRows: 8 }} spellCheck={false} /> : <Input spellCheck={false} />}
          </Form.Item>
        ))}
        {secrets.map((field) => {
          const state = secretState(config, field, cleared);
          const placeholder = state === 'set' ? (config.secrets[field] ?? '') : t(`admin.pay.secret.${state}`);
          return (
            <Form.Item key={field} label={t(`admin.pay.fields.${field}`)} extra={t(`admin.pay.help.${field}`)}>
              <div className="secret-row">
                <Form.Item name={['secrets', field]} noStyle>
                  {MULTILINE.has(field) ? (
                    <Input.TextArea autoSize={{ minRows: 2, maxRows: 8 }} spellCheck={false} placeholder={placeholder} disabled={state === 'clearing' ? true : undefined} data-testid={`secret-${field}`} />
                  ) : (
                    <Input.Password autoComplete="new-password" placeholder={placeholder} disabled={state === 'clearing' ? true : undefined} data-testid={`secret-${field}`} />
                  )}
                </Form.Item>
                {state !== 'unset' ? (
                  <Button icon={state === 'clearing' ? <UndoOutlined /> : <DeleteOutlined />} onClick={() => toggleClear(field)} danger={state !== 'clearing'}>
                    {state === 'clearing' ? t('admin.pay.secret.keep') : t('admin.pay.secret.clear')}
                  </Button>
                ) : null}
              </div>
            </Form.Item>
          );
        })}
        <Button type="primary" htmlType="submit" loading={save.isPending} data-testid={`pay-save-${method}`}>
          {save.isPending ? t('common.submitting') : t('admin.pay.save')}
        </Button>
      </Form>
    </Card>
  );
}

import { API_KEY_SCOPES, createApiKeyBody, type CreatedApiKeyDto } from '@resi/contract';
import { Checkbox, DatePicker, Form, Input, InputNumber, Modal, type ButtonProps } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { useTranslation } from 'react-i18next';
import { currencyDigits, toMinorUnits } from '@/lib/format';
import { numberRule, schemaRule } from '@/lib/form-rules';
import { notify } from '@/lib/notify';
import { useCreateApiKey } from '../api/create-api-key';
import { allowlistLines, createApiKeyRequest, type ApiKeyFormValues } from './api-key-values';

interface Props {
  open: boolean;
  /** The shop's currency the cap is typed in; null when nothing is for sale, and then `buy` cannot be chosen. */
  currency: string | null;
  onClose: () => void;
  /** The answer with the secret, which the card shows once. */
  onCreated: (created: CreatedApiKeyDto) => void;
}

/** Today and later: a key that expired before it was made would be refused by the server anyway. */
const beforeToday = (day: Dayjs) => day.isBefore(dayjs().startOf('day'));

/**
 * A new key (docs/api.md#programs): name, scopes, and the optional limits: expiry, caller addresses and,
 * for a key that buys, the daily spending cap. Fields are checked by the contract's own schemas; the server says
 * the rest (20 keys already, an address it cannot read) in a toast, and the form stays open with what was typed.
 */
export function ApiKeyCreateModal({ open, currency, onClose, onCreated }: Props) {
  const { t } = useTranslation();
  const [form] = Form.useForm<ApiKeyFormValues>();
  const create = useCreateApiKey();
  const scopes = Form.useWatch('scopes', form) ?? [];
  const buys = scopes.includes('buy') && currency !== null;

  const submit = (values: ApiKeyFormValues) => {
    // Without a currency `buy` cannot be ticked, so no cap is converted with the empty code.
    create.mutate(createApiKeyRequest(values, currency ?? ''), {
      onSuccess: (res) => {
        notify.success(res.message || t('apiKeys.create.done'));
        onCreated(res.data);
      },
    });
  };

  const allowlistRule = {
    validator: async (_rule: unknown, value: string | undefined) => {
      const lines = allowlistLines(value);
      if (lines.length === 0) return;
      const result = createApiKeyBody.shape.allowlist.safeParse(lines);
      if (!result.success) throw new Error(t(result.error.issues[0]?.message ?? 'common.form.invalid'));
    },
  };

  return (
    <Modal
      open={open}
      onCancel={onClose}
      title={t('apiKeys.create.title')}
      okText={t('apiKeys.create.submit')}
      cancelText={t('apiKeys.create.cancel')}
      okButtonProps={{ htmlType: 'submit', form: 'api-key-create', loading: create.isPending, 'data-testid': 'api-key-create-submit' } as ButtonProps}
      destroyOnHidden
      data-testid="api-key-create-modal"
    >
      <Form<ApiKeyFormValues> id="api-key-create" name="api-key-create" form={form} layout="vertical" requiredMark={false} initialValues={{ scopes: ['read'] }} onFinish={submit}>
        <Form.Item name="name" label={t('apiKeys.create.name')} rules={[schemaRule(createApiKeyBody.shape.name, t)]}>
          <Input maxLength={64} placeholder={t('apiKeys.create.namePlaceholder')} autoComplete="off" data-testid="api-key-name-input" />
        </Form.Item>
        <Form.Item name="scopes" label={t('apiKeys.create.scopes')} rules={[schemaRule(createApiKeyBody.shape.scopes, t)]}>
          <Checkbox.Group className="api-key-scope-choice" data-testid="api-key-scopes-input">
            {API_KEY_SCOPES.map((scope) => (
              <Checkbox key={scope} value={scope} disabled={scope === 'buy' && currency === null} data-testid={`api-key-scope-${scope}`}>
                <span className="api-key-scope-choice__name">{t(`apiKeys.scope.${scope}.name`)}</span> <span className="mono muted">{scope}</span>
                <div className="muted">{t(`apiKeys.scope.${scope}.hint`)}</div>
              </Checkbox>
            ))}
          </Checkbox.Group>
        </Form.Item>
        {buys ? (
          <Form.Item
            name="dailySpendCap"
            label={t('apiKeys.create.spendCap')}
            extra={t('apiKeys.create.spendCapHint')}
            rules={[numberRule(createApiKeyBody.shape.dailySpendCap, t, (v) => toMinorUnits(v, currency))]}
          >
            <InputNumber min={0} precision={currencyDigits(currency)} prefix={currency} className="full-width" data-testid="api-key-cap-input" />
          </Form.Item>
        ) : null}
        <Form.Item name="expiresOn" label={t('apiKeys.create.expiry')} extra={t('apiKeys.create.expiryHint')}>
          <DatePicker disabledDate={beforeToday} placeholder={t('apiKeys.create.expiryPlaceholder')} className="full-width" data-testid="api-key-expiry-input" />
        </Form.Item>
        <Form.Item name="allowlist" label={t('apiKeys.create.allowlist')} extra={t('apiKeys.create.allowlistHint')} rules={[allowlistRule]}>
          <Input.TextArea autoSize={{ minRows: 2, maxRows: 6 }} placeholder={'203.0.113.7\n198.51.100.0/24'} className="mono" data-testid="api-key-allowlist-input" />
        </Form.Item>
      </Form>
    </Modal>
  );
}

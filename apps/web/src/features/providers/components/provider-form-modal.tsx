import { PROVIDER_STATUSES, providerBody, providerCost } from '@resi/contract';
import { DatePicker, Form, Input, InputNumber, Modal, Select, type ButtonProps, type FormRule } from 'antd';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import { currencyDigits, toMinorUnits } from '@/lib/format';
import { numberRule, schemaRule } from '@/lib/form-rules';
import { notify } from '@/lib/notify';
import { useSaveProvider } from '../api/save-provider';
import { fieldOfIssue, normalizeRegions, providerInput, utcToday, type ProviderValues } from './provider-values';
import { parseUpstreamLines } from './upstream-lines';

/** What the dialog edits: a new provider (id null) or an existing one, with the form's starting values. */
export interface ProviderEditing {
  id: number | null;
  values: ProviderValues;
}

const shape = providerBody.shape;
const isKey = (message: string) => /^[a-zA-Z]+(?:\.[a-zA-Z0-9]+)+$/.test(message);
/** The contract's messages are i18n keys; zod's own (a length without a custom message) are not. */
const issueText = (message: string | undefined, t: TFunction) => t(message && isKey(message) ? message : 'common.form.invalid');

/** The textarea's lines, checked as the server will: the first bad line is named by its number. */
function upstreamsRule(t: TFunction): FormRule {
  return {
    validator: async (_rule, value: unknown) => {
      const parsed = parseUpstreamLines(typeof value === 'string' ? value : '');
      if (!parsed.ok) throw new Error(t('providers.form.badLine', { line: parsed.error.line, reason: issueText(parsed.error.message, t) }));
    },
  };
}

/** A provider needs an exit: a template, upstream lines, or both (the contract's `validation.providerExit`). */
function exitRule(t: TFunction): FormRule {
  return ({ getFieldValue }) => ({
    validator: async (_rule, value: unknown) => {
      const template = typeof value === 'string' ? value.trim() : '';
      const lines = String(getFieldValue('upstreams') ?? '').trim();
      if (template === '' && lines === '') throw new Error(t('validation.providerExit'));
    },
  });
}

/** Add or edit a provider. A refusal of the server arrives as the API client's toast and leaves the dialog open. */
export function ProviderFormModal({ editing, onClose }: { editing: ProviderEditing | null; onClose: () => void }) {
  const { t } = useTranslation();
  const [form] = Form.useForm<ProviderValues>();
  const save = useSaveProvider();
  const currency = String(Form.useWatch('currency', form) ?? editing?.values.currency ?? '').trim().toUpperCase();
  const digits = /^[A-Z]{3}$/.test(currency) ? currencyDigits(currency) : 2;

  const submit = (values: ProviderValues) => {
    if (!editing) return;
    const built = providerInput(values);
    if (!built.ok) {
      form.setFields([{ name: 'upstreams', errors: [t('providers.form.badLine', { line: built.error.line, reason: issueText(built.error.message, t) })] }]);
      return;
    }
    // The contract's schema has the last word (the fields' rules mirror it one by one).
    const checked = providerBody.safeParse(built.input);
    if (!checked.success) {
      form.setFields(checked.error.issues.map((issue) => ({ name: fieldOfIssue(issue.path), errors: [issueText(issue.message, t)] })));
      return;
    }
    save.mutate(
      { id: editing.id, body: checked.data },
      {
        onSuccess: (res) => {
          notify.success(res.message || t('providers.saved'));
          onClose();
        },
      },
    );
  };

  // A new cost applies from today unless another day is chosen: editing the amount of the cost in force
  // would otherwise rewrite its past days.
  const onValuesChange = (changed: Partial<ProviderValues>) => {
    if (editing?.id != null && ('cost' in changed || 'currency' in changed) && !form.isFieldTouched('costFrom')) form.setFieldValue('costFrom', utcToday());
  };

  return (
    <Modal
      open={editing !== null}
      title={editing?.id == null ? t('providers.form.create') : t('providers.form.edit')}
      onCancel={onClose}
      onOk={() => form.submit()}
      okText={save.isPending ? t('common.submitting') : t('providers.form.save')}
      cancelText={t('providers.cancel')}
      confirmLoading={save.isPending}
      width={720}
      destroyOnHidden
      okButtonProps={{ 'data-testid': 'provider-submit' } as ButtonProps}
      data-testid="provider-modal"
    >
      {editing ? (
        <Form<ProviderValues>
          name="provider"
          form={form}
          layout="vertical"
          requiredMark={false}
          initialValues={editing.values}
          onFinish={submit}
          onValuesChange={onValuesChange}
          preserve={false}
        >
          <div className="form-row">
            <Form.Item name="name" label={t('providers.fields.name')} rules={[schemaRule(shape.name, t)]}>
              <Input maxLength={60} data-testid="provider-name" />
            </Form.Item>
            <Form.Item name="status" label={t('providers.fields.status')}>
              <Select options={PROVIDER_STATUSES.map((s) => ({ value: s, label: t(`providers.status.${s}`) }))} data-testid="provider-status" />
            </Form.Item>
          </div>
          <Form.Item name="template" label={t('providers.fields.template')} extra={t('providers.form.templateHelp')} dependencies={['upstreams']} rules={[schemaRule(shape.template, t), exitRule(t)]}>
            <Input className="mono" maxLength={500} autoComplete="off" placeholder="http://USER[-country-{country}]-session-{session}:PASS@gate.supplier.example:7000" data-testid="provider-template" />
          </Form.Item>
          <Form.Item name="upstreams" label={t('providers.fields.upstreams')} extra={t('providers.form.upstreamsHelp')} rules={[upstreamsRule(t)]}>
            <Input.TextArea className="mono" autoSize={{ minRows: 3, maxRows: 10 }} spellCheck={false} placeholder="http://user:pass@198.51.100.7:8000,US,ca" data-testid="provider-upstreams" />
          </Form.Item>
          <Form.Item name="regions" label={t('providers.fields.regions')} extra={t('providers.form.regionsHelp')} normalize={normalizeRegions} rules={[schemaRule(shape.regions, t)]}>
            <Select mode="tags" tokenSeparators={[',', ' ', '，']} notFoundContent={null} suffixIcon={null} placeholder={t('providers.allRegions')} className="full-width" data-testid="provider-regions" />
          </Form.Item>
          <div className="form-row">
            <Form.Item name="priority" label={t('providers.fields.priority')} extra={t('providers.form.priorityHelp')} rules={[numberRule(shape.priority, t)]}>
              <InputNumber min={1} max={100} precision={0} className="full-width" data-testid="provider-priority" />
            </Form.Item>
            <Form.Item name="weight" label={t('providers.fields.weight')} extra={t('providers.form.weightHelp')} rules={[numberRule(shape.weight, t)]}>
              <InputNumber min={1} max={1000} precision={0} className="full-width" data-testid="provider-weight" />
            </Form.Item>
          </div>
          <div className="form-row">
            <Form.Item name="cost" label={t('providers.fields.costIn', { currency: currency || '—' })} rules={[numberRule(providerCost.shape.amount, t, (v) => toMinorUnits(v, currency))]}>
              <InputNumber min={0} precision={digits} className="full-width" data-testid="provider-cost" />
            </Form.Item>
            <Form.Item name="currency" label={t('providers.fields.currency')} normalize={(v: string) => v.toUpperCase()} rules={[schemaRule(providerCost.shape.currency, t)]}>
              <Input maxLength={3} className="code-input" data-testid="provider-currency" />
            </Form.Item>
            <Form.Item name="costFrom" label={t('providers.fields.costFrom')} rules={[{ required: true, message: t('validation.date') }]}>
              <DatePicker allowClear={false} className="full-width" data-testid="provider-cost-from" />
            </Form.Item>
          </div>
          <Form.Item name="monthlyQuotaGb" label={t('providers.fields.monthlyQuotaGb')} extra={t('providers.form.quotaHelp')} rules={[schemaRule(shape.monthlyQuotaGb, t, { optional: true })]}>
            <InputNumber min={0} suffix="GB" className="full-width" placeholder={t('providers.noQuota')} data-testid="provider-quota" />
          </Form.Item>
        </Form>
      ) : null}
    </Modal>
  );
}

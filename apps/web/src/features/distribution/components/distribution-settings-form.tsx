import { distributionSettings, PAYOUT_METHODS, type DistributionSettings, type PayoutMethod } from '@resi/contract';
import { Button, Card, Form, InputNumber, Select, Switch } from 'antd';
import { useTranslation } from 'react-i18next';
import { QueryState } from '@/components/query-state';
import { currencyDigits, fromMinorUnits, toMinorUnits } from '@/lib/format';
import { numberRule } from '@/lib/form-rules';
import { notify } from '@/lib/notify';
import { useDistributionSettings, useSaveDistributionSettings } from '../api/distribution-settings';

/** The form's values: the minimum payoff in currency units as typed, the rest as the API takes them. */
interface SettingsValues {
  defaultRate: number;
  holdDays: number;
  minPayout: number;
  payoutMethods: PayoutMethod[];
  commissionOnCreatedAccounts: boolean;
}

export function toSettingsBody(v: SettingsValues, currency: string): DistributionSettings {
  return {
    defaultRate: v.defaultRate,
    holdDays: v.holdDays,
    minPayout: toMinorUnits(v.minPayout, currency),
    payoutMethods: v.payoutMethods,
    commissionOnCreatedAccounts: v.commissionOnCreatedAccounts,
  };
}

const shape = distributionSettings.shape;

function SettingsForm({ settings, currency }: { settings: DistributionSettings; currency: string }) {
  const { t } = useTranslation();
  const [form] = Form.useForm<SettingsValues>();
  const save = useSaveDistributionSettings();
  const submit = (v: SettingsValues) => save.mutate(toSettingsBody(v, currency), { onSuccess: (res) => notify.success(res.message || t('distributionManage.admin.saved')) });
  return (
    <Form<SettingsValues>
      form={form}
      layout="vertical"
      requiredMark={false}
      initialValues={{ ...settings, minPayout: fromMinorUnits(settings.minPayout, currency) }}
      onFinish={submit}
      className="dist-settings-form"
      data-testid="distribution-settings-form"
    >
      <Form.Item name="defaultRate" label={t('distributionManage.settings.defaultRate')} extra={t('distributionManage.settings.defaultRateHint')} rules={[numberRule(shape.defaultRate, t)]}>
        <InputNumber<number> min={0} max={100} precision={2} suffix="%" className="full-width" data-testid="settings-default-rate" />
      </Form.Item>
      <Form.Item name="holdDays" label={t('distributionManage.settings.holdDays')} extra={t('distributionManage.settings.holdDaysHint')} rules={[numberRule(shape.holdDays, t)]}>
        <InputNumber<number> min={0} max={365} precision={0} className="full-width" data-testid="settings-hold-days" />
      </Form.Item>
      <Form.Item
        name="minPayout"
        label={t('distributionManage.settings.minPayout', { currency })}
        extra={t('distributionManage.settings.minPayoutHint')}
        rules={[numberRule(shape.minPayout, t, (v) => toMinorUnits(v, currency))]}
      >
        <InputNumber<number> min={0} precision={currencyDigits(currency)} className="full-width" data-testid="settings-min-payout" />
      </Form.Item>
      <Form.Item
        name="payoutMethods"
        label={t('distributionManage.settings.payoutMethods')}
        rules={[{ required: true, type: 'array', min: 1, message: t('validation.payoutMethods') }]}
      >
        <Select<PayoutMethod[]> mode="multiple" options={PAYOUT_METHODS.map((m) => ({ value: m, label: t(`distributionManage.methods.${m}`) }))} data-testid="settings-payout-methods" />
      </Form.Item>
      <Form.Item
        name="commissionOnCreatedAccounts"
        label={t('distributionManage.settings.createdAccounts')}
        extra={t('distributionManage.settings.createdAccountsHint')}
        valuePropName="checked"
      >
        <Switch data-testid="settings-created-accounts" />
      </Form.Item>
      <Button type="primary" htmlType="submit" loading={save.isPending} data-testid="settings-save">
        {t('distributionManage.settings.save')}
      </Button>
    </Form>
  );
}

/** The admin's distribution settings: default rate, hold, minimum payoff, payout methods, commission on accounts distributors created. */
export function DistributionSettingsCard({ currency }: { currency: string }) {
  const { t } = useTranslation();
  const settings = useDistributionSettings();
  return (
    <Card variant="borderless" className="surface-card" title={t('distributionManage.settings.title')}>
      <QueryState query={settings} rows={6} errorTitle={t('distributionManage.settings.loadFailed')}>
        {(s) => <SettingsForm settings={s} currency={currency} />}
      </QueryState>
    </Card>
  );
}

import { normalizeLang, payoffBody, type DistributionInfo, type PayoutMethod } from '@resi/contract';
import { Alert, Button, Card, Form, Input, InputNumber, Select, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { currencyDigits, formatMoney, toMinorUnits } from '@/lib/format';
import { numberRule, schemaRule } from '@/lib/form-rules';
import { notify } from '@/lib/notify';
import { useRequestPayoff } from '../api/request-payoff';

interface PayoffValues {
  method: PayoutMethod;
  account: string;
  /** Currency units as typed; sent as minor units. */
  amount: number;
}

/** Whether a request can be made at all: something available, and at least the minimum. */
export function canRequestPayoff(info: Pick<DistributionInfo, 'available' | 'minPayout'>): boolean {
  return info.available > 0 && info.available >= info.minPayout;
}

/**
 * Asks for a payoff of available commission (docs/business-rules.md#payoffs). The server checks the
 * minimum, the available amount, the account and an already open request again, and says why in the
 * caller's language; that answer stays under the form as well as in the toast.
 */
export function PayoffForm({ info }: { info: DistributionInfo }) {
  const { t, i18n } = useTranslation();
  const lang = normalizeLang(i18n.language);
  const [form] = Form.useForm<PayoffValues>();
  const request = useRequestPayoff();
  const money = (v: number) => formatMoney(v, info.currency, lang);
  const digits = currencyDigits(info.currency);
  const open = canRequestPayoff(info);

  const submit = (v: PayoffValues) =>
    request.mutate(
      { method: v.method, account: v.account.trim(), amount: toMinorUnits(v.amount, info.currency) },
      {
        onSuccess: (res) => {
          notify.success(res.message || t('distributionManage.payoff.requested'));
          form.resetFields(['amount', 'account']);
        },
      },
    );

  const withinBalance = {
    validator: async (_rule: unknown, value: unknown) => {
      if (typeof value !== 'number') return;
      const minor = toMinorUnits(value, info.currency);
      if (minor < info.minPayout) throw new Error(t('distributionManage.payoff.belowMinimum', { amount: money(info.minPayout) }));
      if (minor > info.available) throw new Error(t('distributionManage.payoff.aboveAvailable', { amount: money(info.available) }));
    },
  };

  return (
    <Card variant="borderless" className="surface-card" title={t('distributionManage.payoff.title')} data-testid="payoff-form-card">
      <Typography.Paragraph type="secondary">
        <span data-testid="payoff-available">{t('distributionManage.payoff.available', { amount: money(info.available) })}</span>
        {' · '}
        <span data-testid="payoff-minimum">{t('distributionManage.payoff.minimum', { amount: money(info.minPayout) })}</span>
      </Typography.Paragraph>
      {open ? null : <Alert type="info" showIcon className="modal-hint" title={t('distributionManage.payoff.closed', { amount: money(info.minPayout) })} data-testid="payoff-closed" />}
      <Form<PayoffValues>
        form={form}
        layout="vertical"
        requiredMark={false}
        disabled={!open}
        initialValues={{ method: info.payoutMethods[0] }}
        onFinish={submit}
        onValuesChange={() => request.reset()}
        className="dist-payoff-form"
        data-testid="payoff-form"
      >
        <Form.Item name="method" label={t('distributionManage.payoff.method')} rules={[schemaRule(payoffBody.shape.method, t)]}>
          <Select<PayoutMethod> options={info.payoutMethods.map((m) => ({ value: m, label: t(`distributionManage.methods.${m}`) }))} data-testid="payoff-method" />
        </Form.Item>
        <Form.Item name="account" label={t('distributionManage.payoff.account')} rules={[schemaRule(payoffBody.shape.account, t)]} extra={t('distributionManage.payoff.accountHint')}>
          <Input maxLength={200} autoComplete="off" data-testid="payoff-account" />
        </Form.Item>
        <Form.Item
          name="amount"
          label={t('distributionManage.payoff.amount', { currency: info.currency })}
          rules={[numberRule(payoffBody.shape.amount, t, (v) => toMinorUnits(v, info.currency)), withinBalance]}
        >
          <InputNumber<number>
            min={0}
            precision={digits}
            step={1}
            className="full-width"
            data-testid="payoff-amount"
          />
        </Form.Item>
        {request.error ? <Alert type="error" showIcon className="modal-hint" title={request.error.message} data-testid="payoff-error" /> : null}
        <Button type="primary" htmlType="submit" loading={request.isPending} data-testid="payoff-submit">
          {t('distributionManage.payoff.submit')}
        </Button>
      </Form>
    </Card>
  );
}

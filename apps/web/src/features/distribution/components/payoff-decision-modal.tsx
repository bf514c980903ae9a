import { normalizeLang, type PayoffDto } from '@resi/contract';
import { Descriptions, Form, Input, Modal, type ButtonProps } from 'antd';
import { useTranslation } from 'react-i18next';
import { formatMoney } from '@/lib/format';
import { notify } from '@/lib/notify';
import { useDecidePayoff } from '../api/decide-payoff';

/** What the dialog records: a rejection with its (required) reason, or a payment with its transfer reference. */
export type Decision = 'rejected' | 'paid';

interface DecisionValues {
  text: string;
}

/** The contract's limits; the inputs stop there, so no message is needed for them. */
const NOTE_MAX = 500;
const TX_REF_MAX = 200;

/**
 * Rejects a request (the reason is shown to the distributor) or marks it paid (with the transfer's reference).
 * Stays open with the server's answer when it refuses, e.g. when another admin decided first.
 */
export function PayoffDecisionModal({ request, decision, onClose }: { request: PayoffDto | null; decision: Decision; onClose: () => void }) {
  const { t, i18n } = useTranslation();
  const [form] = Form.useForm<DecisionValues>();
  const decide = useDecidePayoff();
  const rejecting = decision === 'rejected';
  const testId = rejecting ? 'payoff-reject' : 'payoff-paid';

  const submit = ({ text }: DecisionValues) => {
    if (!request) return;
    const value = text?.trim() ?? '';
    const body = rejecting ? { id: request.id, status: decision, note: value } : { id: request.id, status: decision, ...(value ? { txRef: value } : {}) };
    decide.mutate(body, {
      onSuccess: (res) => {
        notify.success(res.message || t('distributionManage.admin.saved'));
        onClose();
      },
    });
  };

  return (
    <Modal
      open={request !== null}
      onCancel={onClose}
      title={t(rejecting ? 'distributionManage.admin.rejectTitle' : 'distributionManage.admin.paidTitle', { id: request?.id ?? '' })}
      okText={t(rejecting ? 'distributionManage.admin.reject' : 'distributionManage.admin.markPaid')}
      cancelText={t('distributionManage.admin.cancel')}
      onOk={() => form.submit()}
      confirmLoading={decide.isPending}
      destroyOnHidden
      okButtonProps={{ danger: rejecting, 'data-testid': `${testId}-confirm` } as ButtonProps}
      data-testid={`${testId}-modal`}
    >
      {request ? (
        <Descriptions
          size="small"
          column={1}
          items={[
            { key: 'who', label: t('distributionManage.admin.distributor'), children: request.distributorEmail },
            { key: 'amount', label: t('distributionManage.requests.amount'), children: formatMoney(request.amount, request.currency, normalizeLang(i18n.language)) },
            { key: 'method', label: t('distributionManage.requests.method'), children: t(`distributionManage.methods.${request.method}`) },
            { key: 'account', label: t('distributionManage.requests.account'), children: <span className="mono dist-account">{request.account}</span> },
          ]}
        />
      ) : null}
      <Form<DecisionValues> form={form} layout="vertical" requiredMark={false} onFinish={submit} preserve={false}>
        <Form.Item
          name="text"
          label={t(rejecting ? 'distributionManage.admin.reason' : 'distributionManage.admin.txRef')}
          extra={t(rejecting ? 'distributionManage.admin.reasonHint' : 'distributionManage.admin.txRefHint')}
          rules={rejecting ? [{ required: true, whitespace: true, message: t('distributionManage.admin.reasonRequired') }] : []}
        >
          {rejecting ? <Input.TextArea autoSize={{ minRows: 2, maxRows: 4 }} maxLength={NOTE_MAX} data-testid={`${testId}-reason`} /> : <Input maxLength={TX_REF_MAX} data-testid={`${testId}-txref`} />}
        </Form.Item>
      </Form>
    </Modal>
  );
}

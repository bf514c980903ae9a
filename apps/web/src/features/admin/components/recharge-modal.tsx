import { rechargeBody } from '@resi/contract';
import { Alert, Form, Input, InputNumber, Modal, type ButtonProps } from 'antd';
import { useTranslation } from 'react-i18next';
import { gbToBytes } from '@/lib/format';
import { numberRule, schemaRule } from '@/lib/form-rules';
import { notify } from '@/lib/notify';
import { useRechargeTraffic } from '../api/recharge-traffic';
import { type KnownUser, UserPicker } from '@/components/user-picker';

interface RechargeValues {
  userId: number;
  gb: number;
  validityDays: number;
  note: string;
}

/** Credits traffic by hand (a paid order of kind manual-recharge): user, GB (sent as bytes), validity, note. `user`: preselected. */
export function RechargeModal({ open, onClose, user }: { open: boolean; onClose: () => void; user?: KnownUser }) {
  const { t } = useTranslation();
  const [form] = Form.useForm<RechargeValues>();
  const recharge = useRechargeTraffic();

  const submit = (values: RechargeValues) => {
    recharge.mutate(
      { userId: values.userId, bytes: gbToBytes(values.gb), validityDays: values.validityDays, note: values.note.trim() },
      {
        onSuccess: (res) => {
          notify.success(res.message || t('admin.recharge.done'));
          form.resetFields();
          onClose();
        },
      },
    );
  };

  return (
    <Modal
      open={open}
      onCancel={onClose}
      title={t('admin.recharge.title')}
      okText={recharge.isPending ? t('common.submitting') : t('admin.recharge.submit')}
      onOk={() => form.submit()}
      confirmLoading={recharge.isPending}
      destroyOnHidden
      okButtonProps={{ 'data-testid': 'recharge-submit' } as ButtonProps}
      data-testid="recharge-modal"
    >
      <Alert type="info" showIcon title={t('admin.recharge.hint')} className="modal-hint" />
      <Form<RechargeValues> name="recharge" form={form} layout="vertical" requiredMark={false} onFinish={submit} initialValues={{ validityDays: 30, userId: user?.id }} preserve={false}>
        <Form.Item name="userId" label={t('admin.recharge.user')} rules={[numberRule(rechargeBody.shape.userId, t)]}>
          <UserPicker known={user} />
        </Form.Item>
        <Form.Item name="gb" label={t('admin.recharge.traffic')} rules={[numberRule(rechargeBody.shape.bytes, t, gbToBytes)]}>
          <InputNumber min={0} step={1} suffix="GB" className="full-width" data-testid="recharge-gb" />
        </Form.Item>
        <Form.Item name="validityDays" label={t('admin.recharge.validityDays')} rules={[numberRule(rechargeBody.shape.validityDays, t)]}>
          <InputNumber min={1} max={3650} precision={0} suffix={t('admin.recharge.days')} className="full-width" />
        </Form.Item>
        <Form.Item name="note" label={t('admin.recharge.note')} rules={[schemaRule(rechargeBody.shape.note, t)]} extra={t('admin.recharge.noteHint')}>
          <Input.TextArea autoSize={{ minRows: 2, maxRows: 4 }} maxLength={200} data-testid="recharge-note" />
        </Form.Item>
      </Form>
    </Modal>
  );
}

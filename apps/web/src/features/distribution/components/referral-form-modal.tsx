import { accountField, type DistributionUserDto, emailField, passwordField, saveDistributionUserBody } from '@resi/contract';
import { Alert, type ButtonProps, Form, Input, Modal, Select } from 'antd';
import { useTranslation } from 'react-i18next';
import { optionalText, schemaRule } from '@/lib/form-rules';
import { notify } from '@/lib/notify';
import { useSaveReferral } from '../api/save-referral';

interface ReferralValues {
  email?: string;
  account?: string;
  password?: string;
  remark?: string;
  status?: 'active' | 'disabled';
}

/** The body of `POST /distribution/saveuser`: a new customer (`editing` null), or a referral's remark and status only. */
export function referralBody(values: ReferralValues, editing: DistributionUserDto | null) {
  const remark = optionalText(values.remark) ?? null;
  if (editing) return { id: editing.id, remark, status: values.status };
  return { email: values.email?.trim(), account: optionalText(values.account), password: values.password, remark: remark ?? undefined };
}

/**
 * Create a customer under the caller (email, optional account, password, remark), or edit one referral's
 * remark and status. The server's refusals (email taken, self-referral) arrive as the API client's toast.
 */
export function ReferralFormModal({ editing, isAdmin, open, onClose }: { editing: DistributionUserDto | null; isAdmin: boolean; open: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  // The operator disabled this user: a distributor cannot enable them again (the server refuses it too).
  const locked = !isAdmin && editing?.disabledBy === 'admin';
  const [form] = Form.useForm<ReferralValues>();
  const save = useSaveReferral();
  const remarkRule = schemaRule(saveDistributionUserBody.shape.remark, t);

  const submit = (values: ReferralValues) => {
    save.mutate(referralBody(values, editing), {
      onSuccess: (res) => {
        notify.success(res.message || t('distributionUsers.form.saved'));
        onClose();
      },
    });
  };

  return (
    <Modal
      open={open}
      onCancel={onClose}
      title={editing ? t('distributionUsers.form.editTitle', { email: editing.email }) : t('distributionUsers.form.createTitle')}
      okText={save.isPending ? t('common.submitting') : t('distributionUsers.form.save')}
      onOk={() => form.submit()}
      confirmLoading={save.isPending}
      destroyOnHidden
      okButtonProps={{ 'data-testid': 'referral-save' } as ButtonProps}
      data-testid="referral-modal"
    >
      <Form<ReferralValues>
        name="referral"
        form={form}
        layout="vertical"
        requiredMark={false}
        onFinish={submit}
        initialValues={editing ? { remark: editing.remark ?? '', status: editing.status } : {}}
        preserve={false}
      >
        {editing ? (
          <>
            <Form.Item name="remark" label={t('distributionUsers.form.remark')} extra={t('distributionUsers.form.remarkHint')} rules={[remarkRule]}>
              <Input.TextArea autoSize={{ minRows: 2, maxRows: 4 }} maxLength={200} data-testid="referral-remark" />
            </Form.Item>
            <Form.Item name="status" label={t('distributionUsers.form.status')} extra={t(locked ? 'distributionUsers.form.lockedHint' : 'distributionUsers.form.disableHint')}>
              <Select
                disabled={locked}
                options={(['active', 'disabled'] as const).map((s) => ({
                  value: s,
                  label: t(locked && s === 'disabled' ? 'distributionUsers.status.disabledByAdmin' : `distributionUsers.status.${s}`),
                }))}
                data-testid="referral-status"
              />
            </Form.Item>
          </>
        ) : (
          <>
            <Alert type="info" showIcon title={t('distributionUsers.form.createHint')} className="modal-hint" />
            <Form.Item name="email" label={t('distributionUsers.form.email')} rules={[schemaRule(emailField, t)]}>
              <Input autoComplete="off" inputMode="email" data-testid="referral-email" />
            </Form.Item>
            <Form.Item name="account" label={t('distributionUsers.form.account')} rules={[schemaRule(accountField, t, { optional: true })]}>
              <Input autoComplete="off" data-testid="referral-account" />
            </Form.Item>
            <Form.Item name="password" label={t('distributionUsers.form.password')} rules={[schemaRule(passwordField, t)]}>
              <Input.Password autoComplete="new-password" data-testid="referral-password" />
            </Form.Item>
            <Form.Item name="remark" label={t('distributionUsers.form.remark')} extra={t('distributionUsers.form.remarkHint')} rules={[remarkRule]}>
              <Input.TextArea autoSize={{ minRows: 2, maxRows: 4 }} maxLength={200} data-testid="referral-remark" />
            </Form.Item>
          </>
        )}
      </Form>
    </Modal>
  );
}

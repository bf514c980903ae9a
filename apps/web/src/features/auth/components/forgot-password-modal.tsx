import { emailField, mailCodeField, passwordField } from '@resi/contract';
import { Alert, Button, Form, Input, Modal } from 'antd';
import { useTranslation } from 'react-i18next';
import { AntdProvider } from '@/app/antd-provider';
import { CaptchaInput } from '@/components/captcha-input';
import { SendCodeButton } from '@/components/send-code-button';
import { sameAsRule, schemaRule } from '@/lib/form-rules';
import { notify } from '@/lib/notify';
import { useMailCodeSender } from '@/hooks/use-mail-code-sender';
import { useResetPassword } from '../api/reset-password';

interface ResetValues {
  email: string;
  captcha: string;
  code: string;
  newPassword: string;
  confirm: string;
}

/**
 * Forgot password, on the login page so it stays on a public path: email + captcha → code (purpose
 * `reset`) → code + new password → POST /api/reset-pass.
 */
export function ForgotPasswordModal({ open, onClose, onDone }: { open: boolean; onClose: () => void; onDone: (email: string) => void }) {
  const { t } = useTranslation();
  return (
    // The login page is drawn without antd; the dialog brings it, with the console's theme.
    <AntdProvider>
      <Modal open={open} onCancel={onClose} title={t('auth.reset.title')} footer={null} destroyOnHidden width={460}>
        {/* Mounted only while open, so its captcha is fetched only then. */}
        <ResetPasswordForm onDone={onDone} />
      </Modal>
    </AntdProvider>
  );
}

function ResetPasswordForm({ onDone }: { onDone: (email: string) => void }) {
  const { t } = useTranslation();
  const [form] = Form.useForm<ResetValues>();
  const reset = useResetPassword();

  const { captcha, captchaRule, sendCode } = useMailCodeSender({ purpose: 'reset', email: { field: 'email' } });

  const submit = (values: ResetValues) => {
    reset.mutate(
      { email: values.email.trim(), code: values.code.trim(), newPassword: values.newPassword },
      {
        onSuccess: (res) => {
          notify.success(res.message || t('auth.reset.done'));
          onDone(values.email.trim());
          form.resetFields();
        },
      },
    );
  };

  return (
    <div data-testid="reset-form">
      <Alert type="info" showIcon message={t('auth.reset.hint')} className="modal-hint" />
      <Form<ResetValues> name="reset-password" form={form} layout="vertical" requiredMark={false} onFinish={submit} size="large">
        <Form.Item name="email" label={t('auth.fields.email')} rules={[schemaRule(emailField, t)]}>
          <Input placeholder={t('auth.placeholders.email')} autoComplete="email" />
        </Form.Item>
        <Form.Item name="captcha" label={t('auth.fields.captcha')} rules={[captchaRule]}>
          <CaptchaInput src={captcha.src} loading={captcha.loading} failed={captcha.failed} onRefresh={captcha.refresh} />
        </Form.Item>
        <Form.Item label={t('auth.fields.mailCode')} required>
          <div className="code-row">
            <Form.Item name="code" noStyle rules={[schemaRule(mailCodeField, t)]}>
              <Input placeholder={t('auth.placeholders.mailCode')} maxLength={6} inputMode="numeric" autoComplete="one-time-code" />
            </Form.Item>
            <SendCodeButton onSend={() => sendCode(form)} />
          </div>
        </Form.Item>
        <Form.Item name="newPassword" label={t('auth.fields.newPassword')} rules={[schemaRule(passwordField, t)]}>
          <Input.Password placeholder={t('auth.placeholders.newPassword')} autoComplete="new-password" />
        </Form.Item>
        <Form.Item name="confirm" label={t('auth.fields.confirmPassword')} dependencies={['newPassword']} rules={[sameAsRule('newPassword', t)]}>
          <Input.Password placeholder={t('auth.placeholders.confirmPassword')} autoComplete="new-password" />
        </Form.Item>
        <Button type="primary" htmlType="submit" block loading={reset.isPending} data-testid="reset-submit">
          {reset.isPending ? t('common.submitting') : t('auth.reset.submit')}
        </Button>
      </Form>
    </div>
  );
}

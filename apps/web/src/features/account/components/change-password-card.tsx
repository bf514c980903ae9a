import { LockOutlined } from '@ant-design/icons';
import { changePassBody, mailCodeField, passwordField } from '@resi/contract';
import { Button, Card, Form, Input, Space, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { CaptchaInput } from '@/components/captcha-input';
import { SendCodeButton } from '@/components/send-code-button';
import { sameAsRule, schemaRule } from '@/lib/form-rules';
import { notify } from '@/lib/notify';
import { useMailCodeSender } from '@/hooks/use-mail-code-sender';
import { useChangePassword } from '../api/change-password';

interface ChangeValues {
  oldPassword: string;
  newPassword: string;
  confirm: string;
  captcha: string;
  code: string;
}

/** Old and new password plus a code mailed to the user's own address (purpose `change-pass`). */
export function ChangePasswordCard({ email }: { email: string }) {
  const { t } = useTranslation();
  const [form] = Form.useForm<ChangeValues>();
  const change = useChangePassword();

  const { captcha, captchaRule, sendCode } = useMailCodeSender({ purpose: 'change-pass', email: { value: email } });

  const submit = (values: ChangeValues) => {
    change.mutate(
      { oldPassword: values.oldPassword, newPassword: values.newPassword, code: values.code.trim() },
      {
        onSuccess: (res) => {
          notify.success(res.message || t('account.password.done'));
          form.resetFields();
        },
      },
    );
  };

  return (
    <Card
      variant="borderless"
      className="surface-card"
      title={
        <Space>
          <LockOutlined />
          {t('account.password.title')}
        </Space>
      }
    >
      <Typography.Paragraph type="secondary">{t('account.password.description', { email })}</Typography.Paragraph>
      <Form<ChangeValues> name="change-password" form={form} layout="vertical" requiredMark={false} onFinish={submit} size="large" className="change-password-form" data-testid="change-password-form">
        <Form.Item name="oldPassword" label={t('account.password.old')} rules={[schemaRule(changePassBody.shape.oldPassword, t)]}>
          <Input.Password autoComplete="current-password" />
        </Form.Item>
        <Form.Item name="newPassword" label={t('account.password.new')} rules={[schemaRule(passwordField, t)]}>
          <Input.Password autoComplete="new-password" />
        </Form.Item>
        <Form.Item name="confirm" label={t('account.password.confirm')} dependencies={['newPassword']} rules={[sameAsRule('newPassword', t)]}>
          <Input.Password autoComplete="new-password" />
        </Form.Item>
        <Form.Item name="captcha" label={t('auth.fields.captcha')} required rules={[captchaRule]} extra={t('common.captcha.forMailCode')}>
          <CaptchaInput src={captcha.src} loading={captcha.loading} failed={captcha.failed} onRefresh={captcha.refresh} />
        </Form.Item>
        <Form.Item label={t('auth.fields.mailCode')} required>
          <div className="code-row">
            <Form.Item name="code" noStyle rules={[schemaRule(mailCodeField, t)]}>
              <Input size="large" maxLength={6} inputMode="numeric" autoComplete="one-time-code" placeholder={t('auth.placeholders.mailCode')} />
            </Form.Item>
            <SendCodeButton onSend={() => sendCode(form)} />
          </div>
        </Form.Item>
        <Button type="primary" htmlType="submit" loading={change.isPending} data-testid="change-password-submit">
          {change.isPending ? t('common.submitting') : t('account.password.submit')}
        </Button>
      </Form>
    </Card>
  );
}

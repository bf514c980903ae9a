import { GiftOutlined, LockOutlined, MailOutlined, UserOutlined } from '@ant-design/icons';
import { accountField, emailField, mailCodeField, normalizeLang, passwordField, registerBody } from '@resi/contract';
import { Button, Checkbox, Form, Input } from 'antd';
import { Trans, useTranslation } from 'react-i18next';
import { CaptchaInput } from '@/components/captcha-input';
import { SendCodeButton } from '@/components/send-code-button';
import { optionalText, sameAsRule, schemaRule } from '@/lib/form-rules';
import { legalUrl } from '@/lib/legal';
import { storage } from '@/lib/storage';
import { useMailCodeSender } from '@/hooks/use-mail-code-sender';
import { useRegister } from '../api/register';
import { useStartSession } from '../hooks/use-start-session';

interface RegisterValues {
  email: string;
  account?: string;
  password: string;
  confirm: string;
  captcha: string;
  code: string;
  inviteCode?: string;
  agree: boolean;
}

/** Registration: email code (sent after a captcha), optional account name and invitation code, agreement. */
export function RegisterForm({ inviteCode }: { inviteCode?: string }) {
  const { t, i18n } = useTranslation();
  const lang = normalizeLang(i18n.language);
  const [form] = Form.useForm<RegisterValues>();
  const register = useRegister();
  const startSession = useStartSession();

  const { captcha, captchaRule, sendCode } = useMailCodeSender({ form, purpose: 'register', email: { field: 'email' } });

  const submit = (values: RegisterValues) => {
    const channel = storage.getChannel();
    register.mutate(
      {
        email: values.email.trim(),
        account: optionalText(values.account),
        password: values.password,
        code: values.code.trim(),
        inviteCode: optionalText(values.inviteCode),
        channelKey: channel?.key,
        channelValue: channel?.value,
        agree: true,
      },
      { onSuccess: startSession },
    );
  };

  return (
    <Form<RegisterValues>
      name="register"
      form={form}
      layout="vertical"
      requiredMark="optional"
      onFinish={submit}
      initialValues={{ inviteCode: inviteCode ?? '', agree: false }}
      size="large"
      data-testid="register-form"
    >
      <Form.Item name="email" label={t('auth.fields.email')} required rules={[schemaRule(emailField, t)]}>
        <Input prefix={<MailOutlined />} placeholder={t('auth.placeholders.email')} autoComplete="email" />
      </Form.Item>
      <Form.Item name="account" label={t('auth.fields.account')} rules={[schemaRule(accountField, t, { optional: true })]} extra={t('auth.register.accountHint')}>
        <Input prefix={<UserOutlined />} placeholder={t('auth.placeholders.account')} autoComplete="username" maxLength={32} />
      </Form.Item>
      <Form.Item name="password" label={t('auth.fields.password')} required rules={[schemaRule(passwordField, t)]}>
        <Input.Password prefix={<LockOutlined />} placeholder={t('auth.placeholders.newPassword')} autoComplete="new-password" />
      </Form.Item>
      <Form.Item
        name="confirm"
        label={t('auth.fields.confirmPassword')}
        required
        dependencies={['password']}
        rules={[sameAsRule('password', t)]}
      >
        <Input.Password prefix={<LockOutlined />} placeholder={t('auth.placeholders.confirmPassword')} autoComplete="new-password" />
      </Form.Item>
      <Form.Item name="captcha" label={t('auth.fields.captcha')} required rules={[captchaRule]} extra={t('common.captcha.forMailCode')}>
        <CaptchaInput src={captcha.src} loading={captcha.loading} failed={captcha.failed} onRefresh={captcha.refresh} />
      </Form.Item>
      <Form.Item label={t('auth.fields.mailCode')} required>
        <div className="code-row">
          <Form.Item name="code" noStyle rules={[schemaRule(mailCodeField, t)]}>
            <Input placeholder={t('auth.placeholders.mailCode')} maxLength={6} inputMode="numeric" autoComplete="one-time-code" />
          </Form.Item>
          <SendCodeButton onSend={sendCode} />
        </div>
      </Form.Item>
      <Form.Item name="inviteCode" label={t('auth.fields.inviteCode')} rules={[schemaRule(registerBody.shape.inviteCode, t, { optional: true })]}>
        <Input prefix={<GiftOutlined />} placeholder={t('auth.placeholders.inviteCode')} maxLength={32} />
      </Form.Item>
      <Form.Item
        name="agree"
        valuePropName="checked"
        rules={[{ validator: async (_r, checked: boolean) => { if (!checked) throw new Error(t('validation.agree')); } }]}
      >
        <Checkbox data-testid="agree">
          <Trans
            i18nKey="auth.register.agree"
            components={{
              terms: <a href={legalUrl('terms', lang)} target="_blank" rel="noopener noreferrer" />,
              privacy: <a href={legalUrl('privacy', lang)} target="_blank" rel="noopener noreferrer" />,
            }}
          />
        </Checkbox>
      </Form.Item>
      <Button type="primary" htmlType="submit" block loading={register.isPending} data-testid="register-submit">
        {register.isPending ? t('auth.register.submitting') : t('auth.register.submit')}
      </Button>
    </Form>
  );
}

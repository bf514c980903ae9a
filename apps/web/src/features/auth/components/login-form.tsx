import { LockOutlined, UserOutlined } from '@ant-design/icons';
import { Button, Form, Input } from 'antd';
import { useTranslation } from 'react-i18next';
import { useCaptcha } from '@/api/get-captcha';
import { CaptchaInput } from '@/components/captcha-input';
import { schemaRule } from '@/lib/form-rules';
import { useLogin } from '../api/login';
import { useStartSession } from '../hooks/use-start-session';

// The rules are the contract's; fetched with zod at the first check, not with the page (lib/form-rules.ts).
const contract = () => import('../login-schemas');

interface LoginValues {
  account: string;
  password: string;
  captcha: string;
}

/** Email or account name, password and captcha → POST /api/login. */
export function LoginForm({ onForgot, initialAccount }: { onForgot: () => void; initialAccount?: string }) {
  const { t } = useTranslation();
  const [form] = Form.useForm<LoginValues>();
  const captcha = useCaptcha('login');
  const login = useLogin();
  const startSession = useStartSession();

  const submit = (values: LoginValues) => {
    if (!captcha.id) return captcha.refresh();
    login.mutate(
      { account: values.account.trim(), password: values.password, captchaId: captcha.id, captcha: values.captcha.trim() },
      {
        onSuccess: startSession,
        // A captcha answers one check only: always a new one after an attempt.
        onSettled: () => {
          form.setFieldValue('captcha', '');
          captcha.refresh();
        },
      },
    );
  };

  return (
    <Form<LoginValues> name="login" form={form} layout="vertical" requiredMark={false} onFinish={submit} initialValues={{ account: initialAccount ?? '' }} size="large" data-testid="login-form">
      <Form.Item name="account" label={t('auth.fields.loginAccount')} rules={[schemaRule(() => contract().then((c) => c.loginBody.shape.account), t)]}>
        <Input prefix={<UserOutlined />} placeholder={t('auth.placeholders.loginAccount')} autoComplete="username" />
      </Form.Item>
      <Form.Item
        name="password"
        label={t('auth.fields.password')}
        rules={[schemaRule(() => contract().then((c) => c.loginBody.shape.password), t)]}
      >
        <Input.Password prefix={<LockOutlined />} placeholder={t('auth.placeholders.password')} autoComplete="current-password" />
      </Form.Item>
      <Form.Item name="captcha" label={t('auth.fields.captcha')} rules={[schemaRule(() => contract().then((c) => c.captchaField), t)]}>
        <CaptchaInput src={captcha.src} loading={captcha.loading} failed={captcha.failed} onRefresh={captcha.refresh} />
      </Form.Item>
      <div className="auth-form__row">
        <span />
        <Button type="link" onClick={onForgot} className="auth-form__forgot" data-testid="forgot-password">
          {t('auth.login.forgot')}
        </Button>
      </div>
      <Button type="primary" htmlType="submit" block loading={login.isPending} data-testid="login-submit">
        {login.isPending ? t('auth.login.submitting') : t('auth.login.submit')}
      </Button>
    </Form>
  );
}

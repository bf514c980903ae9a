import { useTranslation } from 'react-i18next';
import { useCaptcha } from '@/api/get-captcha';
import { Field } from '@/components/lite/field';
import { LiteCaptchaInput } from '@/components/lite/captcha-input';
import { Icon, LockOutlined, UserOutlined } from '@/components/lite/icons';
import { LiteButton } from '@/components/lite/lite-button';
import { TextInput } from '@/components/lite/text-input';
import { useLiteForm } from '@/components/lite/use-lite-form';
import { schemaRule } from '@/lib/form-rules';
import { useLogin } from '../api/login';
import { useStartSession } from '../hooks/use-start-session';

// The rules are the contract's; fetched with zod at the first check, not with the page (lib/form-rules.ts).
const contract = () => import('../login-schemas');

/** Email or account name, password and captcha → POST /api/login. Drawn without antd (docs/console.md#first-load). */
export function LoginForm({ onForgot, initialAccount }: { onForgot: () => void; initialAccount?: string }) {
  const { t } = useTranslation();
  const form = useLiteForm(
    { account: initialAccount ?? '', password: '', captcha: '' },
    {
      account: [schemaRule(() => contract().then((c) => c.loginBody.shape.account), t)],
      password: [schemaRule(() => contract().then((c) => c.loginBody.shape.password), t)],
      captcha: [schemaRule(() => contract().then((c) => c.captchaField), t)],
    },
  );
  const captcha = useCaptcha('login');
  const login = useLogin();
  const startSession = useStartSession();

  const submit = (values: typeof form.values) => {
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
    <form className="lite-form" noValidate onSubmit={form.submit(submit)} data-testid="login-form">
      <Field id="login_account" label={t('auth.fields.loginAccount')} error={form.errors.account}>
        <TextInput
          id="login_account"
          {...form.control('account')}
          prefix={<Icon icon={UserOutlined} />}
          placeholder={t('auth.placeholders.loginAccount')}
          autoComplete="username"
        />
      </Field>
      <Field id="login_password" label={t('auth.fields.password')} error={form.errors.password}>
        <TextInput
          id="login_password"
          {...form.control('password')}
          password
          prefix={<Icon icon={LockOutlined} />}
          placeholder={t('auth.placeholders.password')}
          autoComplete="current-password"
        />
      </Field>
      <Field id="login_captcha" label={t('auth.fields.captcha')} error={form.errors.captcha}>
        <LiteCaptchaInput id="login_captcha" {...form.control('captcha')} src={captcha.src} loading={captcha.loading} failed={captcha.failed} onRefresh={captcha.refresh} />
      </Field>
      <div className="auth-form__row">
        <span />
        <LiteButton variant="link" size="large" onClick={onForgot} className="auth-form__forgot" data-testid="forgot-password">
          {t('auth.login.forgot')}
        </LiteButton>
      </div>
      <LiteButton variant="primary" size="large" type="submit" block loading={login.isPending} data-testid="login-submit">
        {login.isPending ? t('auth.login.submitting') : t('auth.login.submit')}
      </LiteButton>
    </form>
  );
}

import { accountField, emailField, mailCodeField, normalizeLang, passwordField, registerBody } from '@resi/contract';
import { Trans, useTranslation } from 'react-i18next';
import { Field } from '@/components/lite/field';
import { LiteCaptchaInput } from '@/components/lite/captcha-input';
import { GiftOutlined, Icon, LockOutlined, MailOutlined, UserOutlined } from '@/components/lite/icons';
import { LiteButton } from '@/components/lite/lite-button';
import { LiteSendCodeButton } from '@/components/lite/send-code-button';
import { TextInput } from '@/components/lite/text-input';
import { useLiteForm } from '@/components/lite/use-lite-form';
import { optionalText, sameAsRule, schemaRule } from '@/lib/form-rules';
import { legalUrl } from '@/lib/legal';
import { storage } from '@/lib/storage';
import { useMailCodeSender } from '@/hooks/use-mail-code-sender';
import { useRegister } from '../api/register';
import { useStartSession } from '../hooks/use-start-session';

/**
 * Registration: email code (sent after a captcha), optional account name and invitation code, agreement.
 * Drawn without antd (docs/console.md#first-load).
 */
export function RegisterForm({ inviteCode }: { inviteCode?: string }) {
  const { t, i18n } = useTranslation();
  const lang = normalizeLang(i18n.language);
  const register = useRegister();
  const startSession = useStartSession();
  const { captcha, captchaRule, sendCode } = useMailCodeSender({ purpose: 'register', email: { field: 'email' } });
  const form = useLiteForm(
    { email: '', account: '', password: '', confirm: '', captcha: '', code: '', inviteCode: inviteCode ?? '', agree: false as boolean },
    {
      email: [schemaRule(emailField, t)],
      account: [schemaRule(accountField, t, { optional: true })],
      password: [schemaRule(passwordField, t)],
      confirm: [sameAsRule('password', t)],
      captcha: [captchaRule],
      code: [schemaRule(mailCodeField, t)],
      inviteCode: [schemaRule(registerBody.shape.inviteCode, t, { optional: true })],
      agree: [{ validator: async (_r, checked: boolean) => { if (!checked) throw new Error(t('validation.agree')); } }],
    },
  );

  const submit = (values: typeof form.values) => {
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

  const optional = t('common.form.optional');
  const agree = form.control('agree');
  return (
    <form className="lite-form" noValidate onSubmit={form.submit(submit)} data-testid="register-form">
      <Field id="register_email" label={t('auth.fields.email')} error={form.errors.email}>
        <TextInput id="register_email" {...form.text('email')} prefix={<Icon icon={MailOutlined} />} placeholder={t('auth.placeholders.email')} autoComplete="email" />
      </Field>
      <Field id="register_account" label={t('auth.fields.account')} optionalText={optional} error={form.errors.account} extra={t('auth.register.accountHint')}>
        <TextInput
          id="register_account"
          {...form.text('account')}
          prefix={<Icon icon={UserOutlined} />}
          placeholder={t('auth.placeholders.account')}
          autoComplete="username"
          maxLength={32}
        />
      </Field>
      <Field id="register_password" label={t('auth.fields.password')} error={form.errors.password}>
        <TextInput
          id="register_password"
          {...form.text('password')}
          password
          prefix={<Icon icon={LockOutlined} />}
          placeholder={t('auth.placeholders.newPassword')}
          autoComplete="new-password"
        />
      </Field>
      <Field id="register_confirm" label={t('auth.fields.confirmPassword')} error={form.errors.confirm}>
        <TextInput
          id="register_confirm"
          {...form.text('confirm')}
          password
          prefix={<Icon icon={LockOutlined} />}
          placeholder={t('auth.placeholders.confirmPassword')}
          autoComplete="new-password"
        />
      </Field>
      <Field id="register_captcha" label={t('auth.fields.captcha')} error={form.errors.captcha} extra={t('common.captcha.forMailCode')}>
        <LiteCaptchaInput id="register_captcha" {...form.text('captcha')} src={captcha.src} loading={captcha.loading} failed={captcha.failed} onRefresh={captcha.refresh} />
      </Field>
      <Field id="register_code" label={t('auth.fields.mailCode')} error={form.errors.code}>
        <div className="code-row">
          <TextInput
            id="register_code"
            {...form.text('code')}
            placeholder={t('auth.placeholders.mailCode')}
            maxLength={6}
            inputMode="numeric"
            autoComplete="one-time-code"
          />
          <LiteSendCodeButton onSend={() => sendCode(form)} />
        </div>
      </Field>
      <Field id="register_inviteCode" label={t('auth.fields.inviteCode')} optionalText={optional} error={form.errors.inviteCode}>
        <TextInput id="register_inviteCode" {...form.text('inviteCode')} prefix={<Icon icon={GiftOutlined} />} placeholder={t('auth.placeholders.inviteCode')} maxLength={32} />
      </Field>
      <Field id="register_agree" error={form.errors.agree}>
        <label className="lite-checkbox" data-testid="agree">
          <input id="register_agree" type="checkbox" checked={agree.value as boolean} onChange={(e) => agree.onChange(e.target.checked)} aria-invalid={agree.invalid || undefined} />
          <span className="lite-checkbox__box" aria-hidden="true" />
          <span>
            <Trans
              i18nKey="auth.register.agree"
              components={{
                terms: <a href={legalUrl('terms', lang)} target="_blank" rel="noopener noreferrer" />,
                privacy: <a href={legalUrl('privacy', lang)} target="_blank" rel="noopener noreferrer" />,
              }}
            />
          </span>
        </label>
      </Field>
      <LiteButton variant="primary" size="large" type="submit" block loading={register.isPending} data-testid="register-submit">
        {register.isPending ? t('auth.register.submitting') : t('auth.register.submit')}
      </LiteButton>
    </form>
  );
}

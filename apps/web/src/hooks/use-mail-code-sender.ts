import type { MailPurpose } from '@resi/contract';
import { captchaField } from '@resi/contract';
import type { FormInstance, FormRule } from 'antd';
import { useRef } from 'react';
import { useTranslation } from 'react-i18next';
import type { LiteForm } from '@/components/lite/use-lite-form';
import { useCaptcha } from '@/api/get-captcha';
import { useSendMailCode } from '@/api/send-mail-code';
import { DEFAULT_RESEND_AFTER_S } from '@/lib/constants';
import { schemaRule } from '@/lib/form-rules';
import { notify } from '@/lib/notify';

/** What is used of the form: antd's FormInstance, or the lite form of the pages drawn without antd. */
type CodeForm = Pick<FormInstance, 'validateFields' | 'setFieldValue'> | Pick<LiteForm<Record<string, string | boolean>>, 'validateFields' | 'setFieldValue'>;

interface Options {
  purpose: MailPurpose;
  /** Form field holding the address, or the fixed address (change password: the user's own). */
  email: { field: string } | { value: string };
  /** Name of the captcha field in the form. */
  captchaName?: string;
}

/**
 * "Send code" for forms where the captcha guards only the mail-code request: the captcha is checked
 * when sending, not when the form is submitted, and a new one is fetched after every send attempt.
 */
export function useMailCodeSender({ purpose, email, captchaName = 'captcha' }: Options) {
  const { t } = useTranslation();
  const captcha = useCaptcha(purpose);
  const send = useSendMailCode();
  const sending = useRef(false);
  const base = schemaRule(captchaField, t);

  const captchaRule: FormRule = {
    validator: async (rule, value: unknown) => {
      if (!sending.current) return;
      if ('validator' in base && base.validator) await base.validator(rule, value, () => {});
    },
  };

  /** Checks the address and captcha fields of `form`, then sends; resolves as SendCodeButton's onSend. */
  const sendCode = async (form: CodeForm): Promise<number | null> => {
    sending.current = true;
    let values: Record<string, unknown>;
    try {
      values = await (form.validateFields as (names: string[]) => Promise<Record<string, unknown>>)('field' in email ? [email.field, captchaName] : [captchaName]);
    } finally {
      sending.current = false;
    }
    if (!captcha.id) {
      captcha.refresh();
      return null;
    }
    const address = 'field' in email ? String(values[email.field] ?? '') : email.value;
    try {
      const res = await send.mutateAsync({ email: address.trim(), purpose, captchaId: captcha.id, captcha: String(values[captchaName] ?? '').trim() });
      if (res.message) notify.success(res.message);
      return res.data?.resendAfter ?? DEFAULT_RESEND_AFTER_S;
    } finally {
      form.setFieldValue(captchaName, '');
      captcha.refresh();
    }
  };

  return { captcha, captchaRule, sendCode };
}

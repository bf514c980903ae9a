import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '@/lib/api-client';

/** "Send code" → "Sending…" while busy → "Resend in 60 s" countdown: the state behind both send-code buttons. */
export function useSendCode(onSend: () => Promise<number | null>) {
  const { t } = useTranslation();
  const [sending, setSending] = useState(false);
  const [left, setLeft] = useState(0);

  useEffect(() => {
    if (left <= 0) return;
    const timer = setTimeout(() => setLeft((s) => s - 1), 1000);
    return () => clearTimeout(timer);
  }, [left]);

  const click = async () => {
    setSending(true);
    try {
      const wait = await onSend();
      if (wait && wait > 0) setLeft(Math.ceil(wait));
    } catch (err) {
      // The API client's error is already shown as a toast; form validation errors show on the fields.
      // Too soon (429): count down the wait the server named instead of letting the user click again.
      if (err instanceof ApiError && err.status === 429 && err.retryAfter) setLeft(err.retryAfter);
    } finally {
      setSending(false);
    }
  };

  const label = sending ? t('common.mailCode.sending') : left > 0 ? t('common.mailCode.resendIn', { seconds: left }) : t('common.mailCode.send');
  return { label, sending, waiting: left > 0, click: () => void click() };
}

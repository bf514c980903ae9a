import type { SendMailCodeBody, Envelope } from '@resi/contract';
import { useMutation } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

/** POST /api/send-mail-code → `{data:{resendAfter}, message}`. */
export function sendMailCode(body: SendMailCodeBody): Promise<Envelope<{ resendAfter: number }>> {
  return api.post<{ resendAfter: number }>('/send-mail-code', body);
}

export function useSendMailCode() {
  return useMutation({ mutationFn: sendMailCode });
}

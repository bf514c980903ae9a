import type { ResetPassBody, Envelope } from '@resi/contract';
import { useMutation } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

/** POST /api/reset-pass `{email, code, newPassword}` (code mailed with purpose `reset`). */
export function resetPassword(body: ResetPassBody): Promise<Envelope<null>> {
  return api.post<null>('/reset-pass', body);
}

export function useResetPassword() {
  return useMutation({ mutationFn: resetPassword });
}

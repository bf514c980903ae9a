import type { ChangePassBody, Envelope } from '@resi/contract';
import { useMutation } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

/** POST /api/user/change-pass `{oldPassword, newPassword, code}`; the server then signs out other sessions. */
export function changePassword(body: ChangePassBody): Promise<Envelope<null>> {
  return api.post<null>('/user/change-pass', body);
}

export function useChangePassword() {
  return useMutation({ mutationFn: changePassword });
}

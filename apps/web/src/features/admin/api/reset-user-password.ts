import type { AdminResetPassBody, Envelope } from '@resi/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { manageUsersKey } from './get-users';

/** POST /api/manage/reset-pass `{userId, password?}` → `{password}` only when the server made one up. */
export function resetUserPassword(body: AdminResetPassBody): Promise<Envelope<{ password?: string }>> {
  return api.post<{ password?: string }>('/manage/reset-pass', body);
}

export function useResetUserPassword() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: resetUserPassword, onSuccess: () => queryClient.invalidateQueries({ queryKey: manageUsersKey }) });
}

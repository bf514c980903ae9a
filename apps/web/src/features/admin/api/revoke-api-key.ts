import type { Envelope } from '@resi/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { manageUsersKey } from './get-users';

/** DELETE /api/manage/api-keys/:id: revokes one of a user's keys (a leaked one, say); the user's detail lists it no more. */
export function revokeUserApiKey(id: number): Promise<Envelope<null>> {
  return api.delete<null>(`/manage/api-keys/${id}`, {});
}

export function useRevokeUserApiKey() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: revokeUserApiKey, onSuccess: () => queryClient.invalidateQueries({ queryKey: manageUsersKey }) });
}

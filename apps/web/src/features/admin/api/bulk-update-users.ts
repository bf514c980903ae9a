import type { Envelope, UserBulkBody } from '@resi/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { manageUsersKey } from './get-users';

/** POST /api/manage/user-bulk `{action, ids | filter}` → how many users changed and how many were kept as they were. */
export function bulkUpdateUsers(body: UserBulkBody): Promise<Envelope<{ affected: number; skipped: number }>> {
  return api.post<{ affected: number; skipped: number }>('/manage/user-bulk', body);
}

export function useBulkUpdateUsers() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: bulkUpdateUsers, onSuccess: () => queryClient.invalidateQueries({ queryKey: manageUsersKey }) });
}

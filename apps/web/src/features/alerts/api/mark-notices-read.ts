import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { noticesKey } from './get-notices';

/**
 * POST /api/user/notices/:id/read for each id: the API marks one notice at a time, so "mark all read" is one call
 * per unread notice, then the list and the count are asked for once.
 */
export async function markNoticesRead(ids: readonly number[]): Promise<void> {
  await Promise.all(ids.map((id) => api.post<null>(`/user/notices/${id}/read`, {})));
}

export function useMarkNoticesRead() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: markNoticesRead, onSettled: () => queryClient.invalidateQueries({ queryKey: noticesKey }) });
}

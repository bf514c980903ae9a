import type { Envelope } from '@resi/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { providersKey } from './provider-keys';

/** DELETE /api/manage/providers/:id; its past usage and costs stay for the margin of past periods. */
export function deleteProvider(id: number): Promise<Envelope<null>> {
  return api.delete<null>(`/manage/providers/${id}`, {});
}

export function useDeleteProvider() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteProvider,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: providersKey }),
  });
}

import type { Envelope } from '@resi/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { webhooksKey } from './get-webhooks';

/** DELETE /api/user/webhooks/:id: the endpoint and its log; what is still queued for it is never sent. */
export function deleteWebhook(id: number): Promise<Envelope<null>> {
  return api.delete<null>(`/user/webhooks/${id}`, {});
}

export function useDeleteWebhook() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: deleteWebhook, onSuccess: () => queryClient.invalidateQueries({ queryKey: webhooksKey }) });
}

import type { Envelope, UpdateWebhookBody, WebhookDto } from '@resi/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { webhooksKey } from './get-webhooks';

/** PUT /api/user/webhooks/:id: what is left out stays (the console sends `enabled` alone). */
export function updateWebhook({ id, body }: { id: number; body: UpdateWebhookBody }): Promise<Envelope<WebhookDto>> {
  return api.put<WebhookDto>(`/user/webhooks/${id}`, body);
}

export function useUpdateWebhook() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: updateWebhook, onSuccess: () => queryClient.invalidateQueries({ queryKey: webhooksKey }) });
}

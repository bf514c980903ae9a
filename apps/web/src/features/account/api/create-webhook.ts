import type { CreatedWebhookDto, CreateWebhookBody, Envelope } from '@resi/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { webhooksKey } from './get-webhooks';

/** POST /api/user/webhooks → the new endpoint with its signing secret in `secret`, in this answer only. */
export function createWebhook(body: CreateWebhookBody): Promise<Envelope<CreatedWebhookDto>> {
  return api.post<CreatedWebhookDto>('/user/webhooks', body);
}

export function useCreateWebhook() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: createWebhook, onSuccess: () => queryClient.invalidateQueries({ queryKey: webhooksKey }) });
}

import type { Envelope, WebhookDeliveryDto } from '@resi/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { webhookDeliveriesKey } from './get-webhook-deliveries';

/** POST /api/user/webhooks/:id/deliveries/:deliveryId/replay → the new delivery, answered after its first attempt. */
export function replayWebhookDelivery({ webhookId, deliveryId }: { webhookId: number; deliveryId: number }): Promise<Envelope<WebhookDeliveryDto>> {
  return api.post<WebhookDeliveryDto>(`/user/webhooks/${webhookId}/deliveries/${deliveryId}/replay`, {});
}

export function useReplayWebhookDelivery() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: replayWebhookDelivery, onSuccess: () => queryClient.invalidateQueries({ queryKey: webhookDeliveriesKey }) });
}

import type { Page, WebhookDeliveryDto, WebhookDeliveryStatus } from '@resi/contract';
import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

export const webhookDeliveriesKey = ['webhook-deliveries'] as const;

export interface WebhookDeliveriesRequest {
  webhookId: number;
  status?: WebhookDeliveryStatus;
  page: number;
  pageSize: number;
}

/** GET /api/user/webhooks/:id/deliveries?page&pageSize&status → the endpoint's deliveries, newest first. */
export async function getWebhookDeliveries({ webhookId, ...query }: WebhookDeliveriesRequest): Promise<Page<WebhookDeliveryDto>> {
  return (await api.get<Page<WebhookDeliveryDto>>(`/user/webhooks/${webhookId}/deliveries`, { ...query })).data;
}

// Pending deliveries change as the job retries them: asked again whenever the drawer opens.
export const webhookDeliveriesQueryOptions = (request: WebhookDeliveriesRequest) =>
  queryOptions({ queryKey: [...webhookDeliveriesKey, request], queryFn: () => getWebhookDeliveries(request), placeholderData: keepPreviousData, staleTime: 0 });

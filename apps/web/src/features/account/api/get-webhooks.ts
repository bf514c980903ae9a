import type { WebhookDto } from '@resi/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

export const webhooksKey = ['webhooks'] as const;

/** GET /api/user/webhooks → the customer's endpoints, newest first (docs/api.md#webhooks). */
export async function getWebhooks(): Promise<WebhookDto[]> {
  return (await api.get<{ items: WebhookDto[] }>('/user/webhooks')).data.items;
}

export const webhooksQueryOptions = () => queryOptions({ queryKey: webhooksKey, queryFn: getWebhooks });

export function useWebhooks() {
  return useQuery(webhooksQueryOptions());
}

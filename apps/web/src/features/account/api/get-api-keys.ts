import type { ApiKeyDto } from '@resi/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

export const apiKeysKey = ['api-keys'] as const;

/** GET /api/user/api-keys → the signed-in customer's keys that are not revoked (docs/api.md#programs). */
export async function getApiKeys(): Promise<ApiKeyDto[]> {
  return (await api.get<{ items: ApiKeyDto[] }>('/user/api-keys')).data.items;
}

// Calls today and last use change whenever a program calls: asked again each time the page opens.
export const apiKeysQueryOptions = () => queryOptions({ queryKey: apiKeysKey, queryFn: getApiKeys, staleTime: 0 });

export function useApiKeys() {
  return useQuery(apiKeysQueryOptions());
}

import type { ProviderDto } from '@resi/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { providersKey } from './provider-keys';

/** Health is live (the gateways' breaker and probes): the list is asked again this often while it is shown. */
export const PROVIDERS_REFRESH_MS = 10_000;

/** GET /api/manage/providers → every provider with its health and today's and this month's usage; secrets masked. */
export async function getProviders(): Promise<ProviderDto[]> {
  return (await api.get<{ items: ProviderDto[] }>('/manage/providers')).data.items;
}

export const providersQueryOptions = () =>
  queryOptions({
    queryKey: providersKey,
    queryFn: getProviders,
    staleTime: 0,
    // A failed answer stops the polling (no toast every 10 s); the error's Retry starts it again.
    refetchInterval: (query) => (query.state.status === 'error' ? false : PROVIDERS_REFRESH_MS),
  });

export function useProviders() {
  return useQuery(providersQueryOptions());
}

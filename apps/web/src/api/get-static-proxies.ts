import type { Page, StaticProxyDto, StaticProxyQuery } from '@resi/contract';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

export type StaticProxyFilters = Partial<StaticProxyQuery>;

export const staticProxiesKey = ['static-proxies'] as const;

/** GET /api/proxy/static?page&pageSize&status&expiringDays → the customer's static IPs (Static Residential; Account Home's reminder). */
export async function getStaticProxies(query: StaticProxyFilters): Promise<Page<StaticProxyDto>> {
  return (await api.get<Page<StaticProxyDto>>('/proxy/static', { ...query })).data;
}

export const staticProxiesQueryOptions = (query: StaticProxyFilters) =>
  queryOptions({ queryKey: [...staticProxiesKey, query], queryFn: () => getStaticProxies(query), placeholderData: keepPreviousData, staleTime: 0 });

export function useStaticProxies(query: StaticProxyFilters) {
  return useQuery(staticProxiesQueryOptions(query));
}

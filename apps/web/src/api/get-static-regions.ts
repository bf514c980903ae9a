import type { StaticRegionWithStock } from '@resi/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

export const staticRegionsKey = ['static-regions'] as const;

/** GET /api/static-region → the enabled static regions, each with its free IPs per business line. */
export async function getStaticRegions(): Promise<StaticRegionWithStock[]> {
  return (await api.get<{ items: StaticRegionWithStock[] }>('/static-region')).data.items;
}

export const staticRegionsQueryOptions = () => queryOptions({ queryKey: staticRegionsKey, queryFn: getStaticRegions, staleTime: 0 });

export function useStaticRegions() {
  return useQuery(staticRegionsQueryOptions());
}

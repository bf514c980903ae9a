import type { RegionDto } from '@resi/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

/** GET /api/region → the enabled exit areas of the rotating pool (countries, states, cities), in the operator's order: Get Proxy offers them, Usage Record filters by their countries. */
export async function getRegions(): Promise<RegionDto[]> {
  return (await api.get<{ items: RegionDto[] }>('/region')).data.items;
}

export const regionsQueryOptions = () => queryOptions({ queryKey: ['regions'], queryFn: getRegions });

export function useRegions() {
  return useQuery(regionsQueryOptions());
}

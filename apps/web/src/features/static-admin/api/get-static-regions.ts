import type { StaticRegionDto } from '@resi/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

/** GET /api/manage/static-region → every static region, disabled ones included (rows may still name them). */
export async function getStaticRegions(): Promise<StaticRegionDto[]> {
  return (await api.get<{ items: StaticRegionDto[] }>('/manage/static-region')).data.items;
}

export function useStaticRegions() {
  return useQuery(queryOptions({ queryKey: ['manage-static-inventory-names', 'static-region'], queryFn: getStaticRegions }));
}

import type { StaticRegionDto } from '@resi/contract';
import { useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

/** GET /api/manage/static-region → every static region: an admin may grant any, enabled or not. */
export async function getStaticRegions(): Promise<StaticRegionDto[]> {
  return (await api.get<{ items: StaticRegionDto[] }>('/manage/static-region')).data.items;
}

export function useStaticRegions() {
  return useQuery({ queryKey: ['manage-grant', 'static-region'], queryFn: getStaticRegions });
}

import type { StaticInventoryEvent } from '@resi/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { staticInventoryKey } from './static-admin-keys';

/** GET /api/manage/static-inventory/:id/history → the row's events, newest first. */
export async function getStaticHistory(id: number): Promise<StaticInventoryEvent[]> {
  return (await api.get<{ items: StaticInventoryEvent[] }>(`/manage/static-inventory/${id}/history`)).data.items;
}

/** Asked only while a row's history is open (`id` set). */
export function useStaticHistory(id: number | null) {
  return useQuery(queryOptions({ queryKey: [...staticInventoryKey, 'history', id], queryFn: () => getStaticHistory(id ?? 0), enabled: id !== null, staleTime: 0 }));
}

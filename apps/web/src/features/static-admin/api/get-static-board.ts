import type { StaticStockCell } from '@resi/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { staticBoardKey } from './static-admin-keys';

/** GET /api/manage/static-inventory/board → counts per region × listed business line (null = all) × status. */
export async function getStaticBoard(): Promise<StaticStockCell[]> {
  return (await api.get<{ items: StaticStockCell[] }>('/manage/static-inventory/board')).data.items;
}

export function useStaticBoard() {
  return useQuery(queryOptions({ queryKey: staticBoardKey, queryFn: getStaticBoard, staleTime: 0 }));
}

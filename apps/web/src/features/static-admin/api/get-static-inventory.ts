import type { Page, StaticInventoryDto, StaticInventoryStatus } from '@resi/contract';
import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import type { Paging } from '@/components/paged-table';
import { staticInventoryKey } from './static-admin-keys';

export interface StaticInventoryFilters {
  regionId?: number;
  businessId?: number;
  status?: StaticInventoryStatus;
  /** A prefix of the exit IP. */
  ip?: string;
}

/** GET /api/manage/static-inventory → one page of rows; the upstream comes masked. */
export async function getStaticInventory(request: StaticInventoryFilters & Paging): Promise<Page<StaticInventoryDto>> {
  return (await api.get<Page<StaticInventoryDto>>('/manage/static-inventory', { ...request })).data;
}

export const staticInventoryQueryOptions = (request: StaticInventoryFilters & Paging) =>
  queryOptions({ queryKey: [...staticInventoryKey, 'list', request], queryFn: () => getStaticInventory(request), placeholderData: keepPreviousData, staleTime: 0 });

import type { CommissionDto, CommissionState, Page } from '@resi/contract';
import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { distributionKeys } from './distribution-keys';

export interface CommissionFilters {
  state?: CommissionState;
}

/** GET /api/distribution/commission: the caller's commission ledger, newest first. */
export async function getCommissions(query: CommissionFilters & { page: number; pageSize: number }): Promise<Page<CommissionDto>> {
  return (await api.get<Page<CommissionDto>>('/distribution/commission', { ...query })).data;
}

export const commissionsQueryOptions = (query: CommissionFilters & { page: number; pageSize: number }) =>
  queryOptions({ queryKey: [...distributionKeys.commission, query], queryFn: () => getCommissions(query), placeholderData: keepPreviousData, staleTime: 0 });

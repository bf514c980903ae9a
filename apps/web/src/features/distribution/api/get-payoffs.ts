import type { Page, PayoffDto, PayoffStatus } from '@resi/contract';
import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { distributionKeys } from './distribution-keys';

export interface PayoffFilters {
  status?: PayoffStatus;
  /** Whose requests: a distributor may name only themselves; an admin anyone, or nobody for everyone's. */
  distributorId?: number;
}

/** GET /api/distribution/payoff: payoff requests, newest first. */
export async function getPayoffs(query: PayoffFilters & { page: number; pageSize: number }): Promise<Page<PayoffDto>> {
  return (await api.get<Page<PayoffDto>>('/distribution/payoff', { ...query })).data;
}

export const payoffsQueryOptions = (query: PayoffFilters & { page: number; pageSize: number }) =>
  queryOptions({ queryKey: [...distributionKeys.payoffs, query], queryFn: () => getPayoffs(query), placeholderData: keepPreviousData, staleTime: 0 });

import type { UsageRecordPage, UsageRecordQuery } from '@resi/contract';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

export type UsageRecordRequest = Partial<UsageRecordQuery>;

export const usageRecordKey = ['usage-record'] as const;

/**
 * GET /api/record/usage?granularity&from&to&accountId&country&page&pageSize → one page of usage grouped by
 * time bucket, proxy account and country, newest first, with the totals of every matching row.
 */
export async function getUsageRecord(query: UsageRecordRequest): Promise<UsageRecordPage> {
  return (await api.get<UsageRecordPage>('/record/usage', { ...query })).data;
}

export const usageRecordQueryOptions = (query: UsageRecordRequest) =>
  queryOptions({ queryKey: [...usageRecordKey, query], queryFn: () => getUsageRecord(query), placeholderData: keepPreviousData, staleTime: 0 });

export function useUsageRecord(query: UsageRecordRequest) {
  return useQuery(usageRecordQueryOptions(query));
}

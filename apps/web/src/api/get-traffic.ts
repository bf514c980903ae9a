import type { trafficResponse, UsageQuery } from '@resi/contract';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

export type TrafficSummary = ReturnType<typeof trafficResponse.parse>;
export type TrafficQuery = Partial<UsageQuery>;

export const trafficKey = ['traffic'] as const;

/**
 * GET /api/traffic?granularity&days&accountId → balance (sum of unexpired remainders), bytes used, the grants
 * behind them, and the usage of the window (every bucket, by country, by proxy account).
 */
export async function getTraffic(query: TrafficQuery = {}): Promise<TrafficSummary> {
  return (await api.get<TrafficSummary>('/traffic', { ...query })).data;
}

export const trafficQueryOptions = (query: TrafficQuery = {}) =>
  queryOptions({ queryKey: [...trafficKey, query], queryFn: () => getTraffic(query), placeholderData: keepPreviousData, staleTime: 0 });

export function useTraffic(query: TrafficQuery = {}) {
  return useQuery(trafficQueryOptions(query));
}

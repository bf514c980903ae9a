import type { StatisticsDto, StatisticsQuery } from '@resi/contract';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

export type StatisticsFilters = Required<StatisticsQuery>;

/** GET /api/manage/statistics (from, to, groupBy) → figures per period, breakdowns, top users and summary. */
export async function getStatistics(query: StatisticsFilters): Promise<StatisticsDto> {
  return (await api.get<StatisticsDto>('/manage/statistics', { ...query })).data;
}

export const statisticsQueryOptions = (query: StatisticsFilters) =>
  queryOptions({ queryKey: ['manage-statistics', query], queryFn: () => getStatistics(query), placeholderData: keepPreviousData, staleTime: 0 });

export function useStatistics(query: StatisticsFilters) {
  return useQuery(statisticsQueryOptions(query));
}

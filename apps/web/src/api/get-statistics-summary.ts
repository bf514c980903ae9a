import type { StatisticsDto } from '@resi/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

export type StatisticsSummaryAnswer = Pick<StatisticsDto, 'summary' | 'currency'>;

/**
 * An admin's Account Home card: today and this month against the period before. The summary comes with
 * any report, so this asks for the smallest one (today by day).
 */
export async function getStatisticsSummary(): Promise<StatisticsSummaryAnswer> {
  const today = new Date().toISOString().slice(0, 10);
  const { data } = await api.get<StatisticsDto>('/manage/statistics', { from: today, to: today, groupBy: 'day' });
  return { summary: data.summary, currency: data.currency };
}

export function useStatisticsSummary() {
  return useQuery(queryOptions({ queryKey: ['manage-statistics', 'summary'], queryFn: getStatisticsSummary, staleTime: 0 }));
}

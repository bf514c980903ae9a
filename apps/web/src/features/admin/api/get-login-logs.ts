import type { LoginAnalysisQuery, LoginAnalysisResponse } from '@resi/contract';
import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

export type LoginLogFilters = Partial<Omit<LoginAnalysisQuery, 'page' | 'pageSize'>>;

export const loginLogsKey = ['manage-logs'] as const;

/** GET /api/manage/logs (filters: email, ip, result, from, to) → a page of sign-in attempts and the summary of all that match. */
export async function getLoginLogs(query: Partial<LoginAnalysisQuery>): Promise<LoginAnalysisResponse> {
  return (await api.get<LoginAnalysisResponse>('/manage/logs', { ...query })).data;
}

export const loginLogsQueryOptions = (query: Partial<LoginAnalysisQuery>) =>
  queryOptions({ queryKey: [...loginLogsKey, query], queryFn: () => getLoginLogs(query), placeholderData: keepPreviousData, staleTime: 0 });

import type { NoticesDto } from '@resi/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

export const noticesKey = ['notices'] as const;

/** How often the header asks for new notices: the alerts job runs every few seconds, a minute late is soon enough. */
export const NOTICES_POLL_MS = 60_000;

/** GET /api/user/notices → the latest notices, newest first, and how many are unread (docs/api.md#programs). */
export async function getNotices(): Promise<NoticesDto> {
  return (await api.get<NoticesDto>('/user/notices')).data;
}

// Polled on every page: a failed poll says nothing (the next one tries again), and the bell keeps its last count.
export const noticesQueryOptions = () =>
  queryOptions({ queryKey: noticesKey, queryFn: getNotices, staleTime: 0, refetchInterval: NOTICES_POLL_MS, refetchOnWindowFocus: true, meta: { silent: true } });

export function useNotices() {
  return useQuery(noticesQueryOptions());
}

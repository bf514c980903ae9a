import type { ChannelStats, ChannelStatsQuery } from '@resi/contract';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

/** GET /api/distribution/channel (from, to, channelKey?, channelValue?) → the funnel per day and channel, and its totals. */
export async function getChannelStats(query: ChannelStatsQuery): Promise<ChannelStats> {
  return (await api.get<ChannelStats>('/distribution/channel', { ...query })).data;
}

export const channelStatsQueryOptions = (query: ChannelStatsQuery) =>
  queryOptions({ queryKey: ['distribution-channel', query], queryFn: () => getChannelStats(query), placeholderData: keepPreviousData, staleTime: 0 });

export function useChannelStats(query: ChannelStatsQuery) {
  return useQuery(channelStatsQueryOptions(query));
}

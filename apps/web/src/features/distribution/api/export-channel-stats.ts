import type { ChannelStatsQuery } from '@resi/contract';
import { useMutation } from '@tanstack/react-query';
import { openExport } from '@/lib/api-client';

/** CSV of the rows shown and their totals: GET /api/distribution/channel?<filters>&token=<ticket> in a new tab (docs/console.md#exports). */
export function exportChannelStats(query: ChannelStatsQuery): Promise<void> {
  return openExport('/distribution/channel', { ...query });
}

export function useExportChannelStats() {
  return useMutation({ mutationFn: exportChannelStats });
}

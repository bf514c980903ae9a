import type { UsageRecordFilters } from '@resi/contract';
import { useMutation } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { saveBlob } from '@/lib/download';

export type UsageExportFilters = Partial<UsageRecordFilters> & { from: string; to: string };

/**
 * GET /api/record/usage/export?… → every row of the filters as CSV, headers in the interface language
 * (Api-Lang). Fetched with the session's bearer header and saved from memory, so no token is put in a URL.
 * A file saved from memory takes the name given here, the one the server's Content-Disposition also uses.
 */
export async function exportUsageRecord(filters: UsageExportFilters): Promise<void> {
  const blob = await api.blob('/record/usage/export', { ...filters });
  saveBlob(blob, `usage-${filters.from}-${filters.to}.csv`);
}

export function useExportUsageRecord() {
  return useMutation({ mutationFn: exportUsageRecord });
}

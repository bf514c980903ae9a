import { useMutation } from '@tanstack/react-query';
import { openExport } from '@/lib/api-client';
import type { StatisticsFilters } from './get-statistics';

/** CSV of the periods and totals: GET /api/manage/statistics?<filters>&token=<ticket> in a new tab (docs/console.md#exports). */
export function exportStatistics(filters: StatisticsFilters): Promise<void> {
  return openExport('/manage/statistics', { ...filters });
}

export function useExportStatistics() {
  return useMutation({ mutationFn: exportStatistics });
}

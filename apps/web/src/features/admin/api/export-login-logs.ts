import { useMutation } from '@tanstack/react-query';
import { openExport } from '@/lib/api-client';
import type { LoginLogFilters } from './get-login-logs';

/** CSV of every attempt matching the filters: GET /api/manage/logs?<filters>&token=<ticket> in a new tab (docs/console.md#exports). */
export function exportLoginLogs(filters: LoginLogFilters): Promise<void> {
  return openExport('/manage/logs', { ...filters });
}

export function useExportLoginLogs() {
  return useMutation({ mutationFn: exportLoginLogs });
}

import { useMutation } from '@tanstack/react-query';
import { openExport } from '@/lib/api-client';
import type { UserListQuery } from './get-users';

/**
 * CSV of every user matching the filters, or of the chosen ones (`ids`): GET /api/manage/user?…&token=<ticket>
 * in a new tab (docs/console.md#exports).
 */
export function exportUsers({ ids, ...filters }: UserListQuery & { ids?: number[] }): Promise<void> {
  return openExport('/manage/user', ids ? { ids: ids.join(',') } : { ...filters });
}

export function useExportUsers() {
  return useMutation({ mutationFn: exportUsers });
}

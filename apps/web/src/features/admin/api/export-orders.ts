import { useMutation } from '@tanstack/react-query';
import { openExport } from '@/lib/api-client';
import type { OrderFilters } from './get-orders';

/**
 * CSV of every order matching the filters: GET /api/manage/order?<filters>&token=<ticket> in a new tab
 * (docs/console.md#exports).
 */
export function exportOrders(filters: OrderFilters): Promise<void> {
  return openExport('/manage/order', { ...filters });
}

export function useExportOrders() {
  return useMutation({ mutationFn: exportOrders });
}

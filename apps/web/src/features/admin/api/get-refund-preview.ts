import type { OrderRefundDto } from '@resi/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

export const refundPreviewKey = ['manage-order-refund'] as const;

/** GET /api/manage/order-refund?orderNo= → the order and what refunding it would take back now. */
export async function getRefundPreview(orderNo: string): Promise<OrderRefundDto> {
  return (await api.get<OrderRefundDto>('/manage/order-refund', { orderNo })).data;
}

/** Read afresh every time the modal opens: the unused traffic shrinks while the customer uses it. */
export const refundPreviewQueryOptions = (orderNo: string) =>
  queryOptions({ queryKey: [...refundPreviewKey, orderNo], queryFn: () => getRefundPreview(orderNo), staleTime: 0, gcTime: 0 });

export function useRefundPreview(orderNo: string | null) {
  return useQuery({ ...refundPreviewQueryOptions(orderNo ?? ''), enabled: orderNo !== null });
}

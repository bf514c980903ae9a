import type { Envelope, OrderRefundBody, OrderRefundDto } from '@resi/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { manageOrdersKey } from './get-orders';

/** POST /api/manage/order-refund `{orderNo, note}`: refunds a paid order once, taking back what it granted. */
export function refundOrder(body: OrderRefundBody): Promise<Envelope<OrderRefundDto>> {
  return api.post<OrderRefundDto>('/manage/order-refund', body);
}

export function useRefundOrder() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: refundOrder,
    // Refused or not, the row may have changed (another admin refunded it first): the desk reads it again.
    onSettled: () => queryClient.invalidateQueries({ queryKey: manageOrdersKey }),
  });
}

import type { AdminOrderDto, Envelope } from '@resi/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { manageOrdersKey } from './get-orders';

/** POST /api/manage/order-verify `{orderNo}`: marks a pending order paid by hand, crediting what it bought. */
export function verifyOrder(orderNo: string): Promise<Envelope<AdminOrderDto>> {
  return api.post<AdminOrderDto>('/manage/order-verify', { orderNo });
}

export function useVerifyOrder() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: verifyOrder,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: manageOrdersKey }),
  });
}

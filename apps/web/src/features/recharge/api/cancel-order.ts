import type { OrderDto } from '@resi/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { myOrdersKey } from '@/api/get-my-orders';
import { api } from '@/lib/api-client';

/** POST /api/order-cancel `{orderNo}`: the customer abandons an unpaid order of theirs; answers it cancelled. */
export async function cancelOrder(orderNo: string): Promise<OrderDto> {
  return (await api.post<OrderDto>('/order-cancel', { orderNo })).data;
}

/** Cancels and reloads the order lists (a refusal, e.g. paid a moment ago, is shown by the shared mutation error). */
export function useCancelOrder() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: cancelOrder, onSettled: () => queryClient.invalidateQueries({ queryKey: myOrdersKey }) });
}

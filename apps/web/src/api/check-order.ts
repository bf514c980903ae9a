import type { OrderDto, OrderStatus } from '@resi/contract';
import { useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

/** How often an open order is asked about while its payment screen is shown. */
export const ORDER_POLL_MS = 3_000;

/** POST /api/order-check `{orderNo}` → the customer's own order as it is now. */
export async function checkOrder(orderNo: string): Promise<OrderDto> {
  return (await api.post<OrderDto>('/order-check', { orderNo })).data;
}

/** Only a pending order can still change by being paid; every other status is where the screen stops. */
export function isOrderOpen(status: OrderStatus): boolean {
  return status === 'pending';
}

/** Next poll delay for the order as last seen: every 3 s while pending, never once settled. */
export function orderPollInterval(order: Pick<OrderDto, 'status'> | undefined): number | false {
  return !order || isOrderOpen(order.status) ? ORDER_POLL_MS : false;
}

export const orderCheckKey = (orderNo: string) => ['order-check', orderNo] as const;

/**
 * The order behind a payment screen, polled every 3 s until it is paid, expired, cancelled or refunded.
 * Polling goes on while the tab is in the background (the customer is paying in another tab) and stops
 * when the screen unmounts. A failed poll is silent: the next one simply tries again.
 */
export function useOrderStatus(initial: OrderDto) {
  return useQuery({
    queryKey: orderCheckKey(initial.orderNo),
    queryFn: () => checkOrder(initial.orderNo),
    initialData: initial,
    staleTime: 0,
    gcTime: 0,
    refetchInterval: (query) => orderPollInterval(query.state.data),
    refetchIntervalInBackground: true,
    meta: { silent: true },
  }).data;
}

import type { AdminOrderDto, ManageOrderQuery, Page } from '@resi/contract';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

export type OrderFilters = Partial<ManageOrderQuery>;

export const manageOrdersKey = ['manage-orders'] as const;

/** GET /api/manage/order (filters: status, kind, payMethod, userId, email, orderNo, from, to) → a page of orders. */
export async function getOrders(query: OrderFilters): Promise<Page<AdminOrderDto>> {
  return (await api.get<Page<AdminOrderDto>>('/manage/order', { ...query })).data;
}

export const ordersQueryOptions = (query: OrderFilters) =>
  queryOptions({ queryKey: [...manageOrdersKey, query], queryFn: () => getOrders(query), placeholderData: keepPreviousData, staleTime: 0 });

export function useOrders(query: OrderFilters) {
  return useQuery(ordersQueryOptions(query));
}

import type { MyAllOrdersQuery, MyOrderQuery, OrderDto, Page } from '@resi/contract';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

export type MyOrderFilters = Partial<MyOrderQuery>;

export const myOrdersKey = ['my-orders'] as const;

/** GET /api/record/dynamic-order?page&pageSize&status&payMethod&from&to → the customer's own traffic orders (Recharge Details and Rotating Residential list them). */
export async function getMyOrders(query: MyOrderFilters): Promise<Page<OrderDto>> {
  return (await api.get<Page<OrderDto>>('/record/dynamic-order', { ...query })).data;
}

export const myOrdersQueryOptions = (query: MyOrderFilters) =>
  queryOptions({ queryKey: [...myOrdersKey, query], queryFn: () => getMyOrders(query), placeholderData: keepPreviousData, staleTime: 0 });

export function useMyOrders(query: MyOrderFilters) {
  return useQuery(myOrdersQueryOptions(query));
}

export type MyAllOrderFilters = Partial<MyAllOrdersQuery>;

/** GET /api/record/order?…&kind → every order of the customer, traffic and static (Recharge Details). */
export async function getMyAllOrders(query: MyAllOrderFilters): Promise<Page<OrderDto>> {
  return (await api.get<Page<OrderDto>>('/record/order', { ...query })).data;
}

export const myAllOrdersQueryOptions = (query: MyAllOrderFilters) =>
  queryOptions({ queryKey: [...myOrdersKey, 'all', query], queryFn: () => getMyAllOrders(query), placeholderData: keepPreviousData, staleTime: 0 });

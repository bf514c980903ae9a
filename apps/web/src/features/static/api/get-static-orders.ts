import type { MyOrderQuery, OrderDto, Page } from '@resi/contract';
import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

export const staticOrdersKey = ['static-orders'] as const;

/** GET /api/record/static-order?page&pageSize → the customer's `static` and `static-renew` orders. */
export async function getStaticOrders(query: Partial<MyOrderQuery>): Promise<Page<OrderDto>> {
  return (await api.get<Page<OrderDto>>('/record/static-order', { ...query })).data;
}

export const staticOrdersQueryOptions = (query: Partial<MyOrderQuery>) =>
  queryOptions({ queryKey: [...staticOrdersKey, query], queryFn: () => getStaticOrders(query), placeholderData: keepPreviousData, staleTime: 0 });

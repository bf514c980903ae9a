import type { PayMethod } from '@resi/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

/** GET /api/pay/methods → the methods the operator enabled, in the order the buy page offers them. */
export async function getPayMethods(): Promise<PayMethod[]> {
  return (await api.get<{ methods: PayMethod[] }>('/pay/methods')).data.methods;
}

export const payMethodsQueryOptions = () => queryOptions({ queryKey: ['pay-methods'], queryFn: getPayMethods, staleTime: 0 });

export function usePayMethods() {
  return useQuery(payMethodsQueryOptions());
}

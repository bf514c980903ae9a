import type { Envelope, OrderDto, StaticRechargeBody } from '@resi/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { manageOrdersKey } from './get-orders';

/** POST /api/manage/static-recharge `{userId, regionId, businessId, quantity, days, note}` → the paid order of amount 0. */
export function grantStaticIps(body: StaticRechargeBody): Promise<Envelope<OrderDto>> {
  return api.post<OrderDto>('/manage/static-recharge', body);
}

export function useGrantStaticIps() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: grantStaticIps,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: manageOrdersKey }),
  });
}

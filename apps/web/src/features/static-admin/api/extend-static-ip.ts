import type { Envelope, OrderDto, StaticRenewRechargeBody } from '@resi/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { staticInventoryKey } from './static-admin-keys';

/** POST /api/manage/static-renew-recharge: days for customers' IPs at no charge, one paid order per customer. */
export function extendStaticIps(body: StaticRenewRechargeBody): Promise<Envelope<{ orders: OrderDto[] }>> {
  return api.post<{ orders: OrderDto[] }>('/manage/static-renew-recharge', body);
}

export function useExtendStaticIps() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: extendStaticIps, onSuccess: () => queryClient.invalidateQueries({ queryKey: staticInventoryKey }) });
}

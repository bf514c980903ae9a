import type { AdminOrderDto, RechargeBody, Envelope } from '@resi/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { manageOrdersKey } from './get-orders';

/** POST /api/manage/recharge `{userId, bytes, validityDays, note}` → the paid manual-recharge order. */
export function rechargeTraffic(body: RechargeBody): Promise<Envelope<AdminOrderDto>> {
  return api.post<AdminOrderDto>('/manage/recharge', body);
}

export function useRechargeTraffic() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: rechargeTraffic,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: manageOrdersKey }),
  });
}

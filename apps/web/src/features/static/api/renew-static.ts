import type { BuyStaticRenewBody, OrderDto, PaymentInstruction } from '@resi/contract';
import { useMutation } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

export interface Purchase {
  order: OrderDto;
  payment: PaymentInstruction;
}

/** POST /api/buy/static-renew `{staticProxyIds, days, payMethod}` → the new pending order and how to pay it. */
export async function renewStatic(body: BuyStaticRenewBody): Promise<Purchase> {
  return (await api.post<Purchase>('/buy/static-renew', body)).data;
}

export function useRenewStatic() {
  return useMutation({ mutationFn: renewStatic });
}

import type { BuyDynamicBody, OrderDto, PaymentInstruction } from '@resi/contract';
import { useMutation } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

export interface Purchase {
  order: OrderDto;
  payment: PaymentInstruction;
}

/** POST /api/buy/dynamic `{goodsId, payMethod}` → the new pending order and how to pay it. */
export async function buyDynamic(body: BuyDynamicBody): Promise<Purchase> {
  return (await api.post<Purchase>('/buy/dynamic', body)).data;
}

export function useBuyDynamic() {
  return useMutation({ mutationFn: buyDynamic });
}

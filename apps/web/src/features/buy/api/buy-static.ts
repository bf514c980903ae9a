import type { BuyStaticBody } from '@resi/contract';
import { useMutation } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import type { Purchase } from './buy-dynamic';

/** POST /api/buy/static `{regionId, businessId, quantity, days, payMethod}` → the new pending order (its IPs reserved) and how to pay it. */
export async function buyStatic(body: BuyStaticBody): Promise<Purchase> {
  return (await api.post<Purchase>('/buy/static', body)).data;
}

export function useBuyStatic() {
  return useMutation({ mutationFn: buyStatic });
}

import type { Envelope, PayoffBody, PayoffDto } from '@resi/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { distributionKeys } from './distribution-keys';

/** POST /api/distribution/payoff: asks for `amount` (minor units) to be paid out; it is held until decided. */
export function requestPayoff(body: PayoffBody): Promise<Envelope<PayoffDto>> {
  return api.post<PayoffDto>('/distribution/payoff', body);
}

export function useRequestPayoff() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: requestPayoff,
    onSettled: () => Promise.all([queryClient.invalidateQueries({ queryKey: distributionKeys.info }), queryClient.invalidateQueries({ queryKey: distributionKeys.payoffs })]),
  });
}

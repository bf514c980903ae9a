import type { Envelope, PayoffDto, PayoffStatusBody } from '@resi/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { distributionKeys } from './distribution-keys';

/** POST /api/distribution/status (admins): approve, reject (with the reason in `note`) or mark paid (with `txRef`). */
export function decidePayoff(body: PayoffStatusBody): Promise<Envelope<PayoffDto>> {
  return api.post<PayoffDto>('/distribution/status', body);
}

export function useDecidePayoff() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: decidePayoff,
    // A refused decision (another admin was first) also means the list is stale.
    onSettled: () => Promise.all([queryClient.invalidateQueries({ queryKey: distributionKeys.payoffs }), queryClient.invalidateQueries({ queryKey: distributionKeys.info })]),
  });
}

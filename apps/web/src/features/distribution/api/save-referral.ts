import type { Envelope, SaveDistributionUserBody } from '@resi/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { referralsKey } from './get-referrals';

/** POST /api/distribution/saveuser: without `id` a new customer under the caller; with `id` a referral's remark or status. */
export function saveReferral(body: SaveDistributionUserBody): Promise<Envelope<{ id: number }>> {
  return api.post<{ id: number }>('/distribution/saveuser', body);
}

export function useSaveReferral() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: saveReferral, onSuccess: () => queryClient.invalidateQueries({ queryKey: referralsKey }) });
}

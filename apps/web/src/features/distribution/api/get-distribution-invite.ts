import type { DistributionInvite } from '@resi/contract';
import { useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { distributionKeys } from './distribution-keys';

/** GET /api/distribution/invite: the caller's invite link and the channel links that brought landings. */
export async function getDistributionInvite(): Promise<DistributionInvite> {
  return (await api.get<DistributionInvite>('/distribution/invite')).data;
}

export function useDistributionInvite() {
  return useQuery({ queryKey: distributionKeys.invite, queryFn: getDistributionInvite, staleTime: 0 });
}

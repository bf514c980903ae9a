import type { DistributionInfo } from '@resi/contract';
import { useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { distributionKeys } from './distribution-keys';

/** GET /api/distribution/info: the caller's own figures, rate, minimum payoff and payout methods. */
export async function getDistributionInfo(): Promise<DistributionInfo> {
  return (await api.get<DistributionInfo>('/distribution/info')).data;
}

export function useDistributionInfo() {
  return useQuery({ queryKey: distributionKeys.info, queryFn: getDistributionInfo, staleTime: 0 });
}

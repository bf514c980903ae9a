import type { DistributionUserDto, DistributionUserQuery, Page } from '@resi/contract';
import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

export type ReferralFilters = Pick<DistributionUserQuery, 'email' | 'status' | 'distributorId'>;
export type ReferralQuery = ReferralFilters & { page?: number; pageSize?: number };

export const referralsKey = ['distribution-users'] as const;

/** GET /api/distribution/user (email, status, and for admins distributorId; paged) → referred users with their figures. */
export async function getReferrals(query: ReferralQuery): Promise<Page<DistributionUserDto>> {
  return (await api.get<Page<DistributionUserDto>>('/distribution/user', { ...query })).data;
}

export const referralsQueryOptions = (query: ReferralQuery) =>
  queryOptions({ queryKey: [...referralsKey, query], queryFn: () => getReferrals(query), placeholderData: keepPreviousData, staleTime: 0 });

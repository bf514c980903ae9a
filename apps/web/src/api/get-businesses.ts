import type { BusinessDto } from '@resi/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

/** GET /api/business → the enabled business lines of static IPs, in the operator's order. */
export async function getBusinesses(): Promise<BusinessDto[]> {
  return (await api.get<{ items: BusinessDto[] }>('/business')).data.items;
}

export const businessesQueryOptions = () => queryOptions({ queryKey: ['businesses'], queryFn: getBusinesses });

export function useBusinesses() {
  return useQuery(businessesQueryOptions());
}

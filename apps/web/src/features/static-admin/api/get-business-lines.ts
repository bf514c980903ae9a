import type { BusinessDto } from '@resi/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

/** GET /api/manage/business → every business line, disabled ones included. */
export async function getBusinessLines(): Promise<BusinessDto[]> {
  return (await api.get<{ items: BusinessDto[] }>('/manage/business')).data.items;
}

export function useBusinessLines() {
  return useQuery(queryOptions({ queryKey: ['manage-static-inventory-names', 'business'], queryFn: getBusinessLines }));
}

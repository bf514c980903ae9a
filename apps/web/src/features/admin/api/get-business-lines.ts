import type { BusinessDto } from '@resi/contract';
import { useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

/** GET /api/manage/business → every business line. */
export async function getBusinessLines(): Promise<BusinessDto[]> {
  return (await api.get<{ items: BusinessDto[] }>('/manage/business')).data.items;
}

export function useBusinessLines() {
  return useQuery({ queryKey: ['manage-grant', 'business'], queryFn: getBusinessLines });
}

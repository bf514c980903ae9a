import type { PayConfigDto } from '@resi/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

export const payConfigKey = ['pay-config'] as const;

/** GET /api/manage/pay-config → every method's settings, its secrets masked (`••••1234`, or null when unset). */
export async function getPayConfig(): Promise<PayConfigDto[]> {
  return (await api.get<{ methods: PayConfigDto[] }>('/manage/pay-config')).data.methods;
}

export const payConfigQueryOptions = () => queryOptions({ queryKey: payConfigKey, queryFn: getPayConfig, staleTime: 0 });

export function usePayConfig() {
  return useQuery(payConfigQueryOptions());
}

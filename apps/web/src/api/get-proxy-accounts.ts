import type { ProxyAccountDto } from '@resi/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

export const proxyAccountsKey = ['proxy-accounts'] as const;

/** GET /api/proxy/dynamic → the customer's own proxy accounts (Rotating Residential manages them, Get Proxy uses them). */
export async function getProxyAccounts(): Promise<ProxyAccountDto[]> {
  return (await api.get<{ items: ProxyAccountDto[] }>('/proxy/dynamic')).data.items;
}

export const proxyAccountsQueryOptions = () => queryOptions({ queryKey: proxyAccountsKey, queryFn: getProxyAccounts, staleTime: 0 });

export function useProxyAccounts() {
  return useQuery(proxyAccountsQueryOptions());
}

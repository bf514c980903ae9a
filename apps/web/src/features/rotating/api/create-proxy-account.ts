import type { CreateProxyAccountBody, ProxyAccountDto, Envelope } from '@resi/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { proxyAccountsKey } from '@/api/get-proxy-accounts';
import { api } from '@/lib/api-client';

/** POST /api/proxy/dynamic `{username, password, limitBytes?, remark?}` → the new proxy account. */
export function createProxyAccount(body: CreateProxyAccountBody): Promise<Envelope<ProxyAccountDto>> {
  return api.post<ProxyAccountDto>('/proxy/dynamic', body);
}

export function useCreateProxyAccount() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: createProxyAccount, onSuccess: () => queryClient.invalidateQueries({ queryKey: proxyAccountsKey }) });
}

import type { ProxyAccountDto, UpdateProxyAccountBody, Envelope } from '@resi/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { proxyAccountsKey } from '@/api/get-proxy-accounts';
import { api } from '@/lib/api-client';

/** PUT /api/proxy/dynamic/:id `{password?, limitBytes?, remark?, status?}` → the account as saved. */
export function updateProxyAccount(id: number, body: UpdateProxyAccountBody): Promise<Envelope<ProxyAccountDto>> {
  return api.put<ProxyAccountDto>(`/proxy/dynamic/${id}`, body);
}

export function useUpdateProxyAccount() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, body }: { id: number; body: UpdateProxyAccountBody }) => updateProxyAccount(id, body),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: proxyAccountsKey }),
  });
}

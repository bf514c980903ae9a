import type { Envelope } from '@resi/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { proxyAccountsKey } from '@/api/get-proxy-accounts';
import { api } from '@/lib/api-client';

/** DELETE /api/proxy/dynamic/:id: the account stops working at once. */
export function deleteProxyAccount(id: number): Promise<Envelope<null>> {
  return api.delete<null>(`/proxy/dynamic/${id}`);
}

export function useDeleteProxyAccount() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: deleteProxyAccount, onSuccess: () => queryClient.invalidateQueries({ queryKey: proxyAccountsKey }) });
}

import type { Envelope, ProxyAccountDto } from '@resi/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { proxyAccountsKey } from '@/api/get-proxy-accounts';
import { api } from '@/lib/api-client';

/** PUT /api/proxy/dynamic/:id `{requirePassword}`: allowlisted addresses must send the password too (their open connections are cut). */
export function useSetRequirePassword() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, requirePassword }: { id: number; requirePassword: boolean }): Promise<Envelope<ProxyAccountDto>> => api.put<ProxyAccountDto>(`/proxy/dynamic/${id}`, { requirePassword }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: proxyAccountsKey }),
  });
}

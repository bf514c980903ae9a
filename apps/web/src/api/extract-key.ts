import type { Envelope } from '@resi/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { proxyAccountsKey } from '@/api/get-proxy-accounts';
import { api } from '@/lib/api-client';

/** Whose extraction key: one rotating account's, or the customer's static IPs'. */
export type KeyOwner = { accountId: number } | 'static';

const staticKeyKey = ['static-extract-key'] as const;

/** GET /api/proxy/static/extract-key → the prefix of the static IPs' key (null: none made yet). */
export function useStaticKeyPrefix() {
  return useQuery({ queryKey: staticKeyKey, queryFn: async () => (await api.get<{ prefix: string | null }>('/proxy/static/extract-key')).data.prefix });
}

/** POST …/extract-key: a new key, shown once; the old one stops working at once. */
export function useRotateKey(owner: KeyOwner) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (): Promise<Envelope<{ key: string }>> =>
      api.post<{ key: string }>(owner === 'static' ? '/proxy/static/extract-key' : `/proxy/dynamic/${owner.accountId}/extract-key`),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: owner === 'static' ? staticKeyKey : proxyAccountsKey }),
  });
}

import type { AllowlistEntryDto, AllowlistListDto, CreateAllowlistBody, Envelope } from '@resi/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

/** Whose allowlist: a rotating proxy account's or a static IP's. */
export type AllowlistTarget = { proxyAccountId: number } | { staticProxyId: number };

const allowlistKey = (target: AllowlistTarget) => ['allowlist', target] as const;

/** GET /api/proxy/allowlist → the target's entries, and the address this browser's requests come from. */
export function useAllowlist(target: AllowlistTarget) {
  return useQuery({
    queryKey: allowlistKey(target),
    queryFn: async () => (await api.get<AllowlistListDto>('/proxy/allowlist', target)).data,
    staleTime: 0,
  });
}

/** POST /api/proxy/allowlist: no `address` adds the caller's own. */
export function useAddAllowlist(target: AllowlistTarget) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: Omit<CreateAllowlistBody, 'proxyAccountId' | 'staticProxyId'>): Promise<Envelope<AllowlistEntryDto>> =>
      api.post<AllowlistEntryDto>('/proxy/allowlist', { ...target, ...body }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: allowlistKey(target) }),
  });
}

/** DELETE /api/proxy/allowlist/:id: the gateways cut what the address opened without a password. */
export function useRemoveAllowlist(target: AllowlistTarget) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number): Promise<Envelope<null>> => api.delete<null>(`/proxy/allowlist/${id}`),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: allowlistKey(target) }),
  });
}

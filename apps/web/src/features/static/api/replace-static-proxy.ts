import type { StaticProxyDto, StaticReplaceBody } from '@resi/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { staticProxiesKey } from '@/api/get-static-proxies';
import { api } from '@/lib/api-client';

/** POST /api/proxy/static/:id/replace `{reason, note?}` → the same IP slot on another exit (same login and expiry). */
export async function replaceStaticProxy(id: number, body: StaticReplaceBody): Promise<StaticProxyDto> {
  return (await api.post<StaticProxyDto>(`/proxy/static/${id}/replace`, body)).data;
}

export function useReplaceStaticProxy() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, body }: { id: number; body: StaticReplaceBody }) => replaceStaticProxy(id, body),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: staticProxiesKey }),
  });
}

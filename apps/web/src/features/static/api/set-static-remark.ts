import type { StaticProxyDto } from '@resi/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { staticProxiesKey } from '@/api/get-static-proxies';
import { api } from '@/lib/api-client';

/** PUT /api/proxy/static/:id `{remark}`: the customer's own note on an IP; empty clears it. */
export async function setStaticRemark(id: number, remark: string | null): Promise<StaticProxyDto> {
  return (await api.put<StaticProxyDto>(`/proxy/static/${id}`, { remark })).data;
}

export function useSetStaticRemark() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, remark }: { id: number; remark: string | null }) => setStaticRemark(id, remark),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: staticProxiesKey }),
  });
}

import type { Envelope, StaticInventoryDto } from '@resi/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { staticInventoryKey } from './static-admin-keys';

/** DELETE /api/manage/static-inventory/:id `{reason?}`: the row is retired for good. */
export function retireStaticInventory(id: number, reason: string | undefined): Promise<Envelope<StaticInventoryDto>> {
  return api.delete<StaticInventoryDto>(`/manage/static-inventory/${id}`, reason ? { reason } : {});
}

export function useRetireStaticInventory() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, reason }: { id: number; reason?: string }) => retireStaticInventory(id, reason),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: staticInventoryKey }),
  });
}

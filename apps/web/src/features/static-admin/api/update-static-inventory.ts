import type { Envelope, StaticInventoryDto, StaticInventoryUpdate } from '@resi/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { staticInventoryKey } from './static-admin-keys';

/** PUT /api/manage/static-inventory/:id `{regionId, businessIds, isp, remark}`. */
export function updateStaticInventory(id: number, body: StaticInventoryUpdate): Promise<Envelope<StaticInventoryDto>> {
  return api.put<StaticInventoryDto>(`/manage/static-inventory/${id}`, body);
}

export function useUpdateStaticInventory() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, body }: { id: number; body: StaticInventoryUpdate }) => updateStaticInventory(id, body),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: staticInventoryKey }),
  });
}

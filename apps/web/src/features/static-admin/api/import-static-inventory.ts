import type { Envelope, StaticImportBody, StaticImportResult } from '@resi/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { staticInventoryKey } from './static-admin-keys';

/** POST /api/manage/static-inventory → one outcome per pasted line, and the summary as the message. */
export function importStaticInventory(body: StaticImportBody): Promise<Envelope<StaticImportResult>> {
  return api.post<StaticImportResult>('/manage/static-inventory', body);
}

export function useImportStaticInventory() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: importStaticInventory,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: staticInventoryKey }),
  });
}

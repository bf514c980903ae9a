import type { Envelope } from '@resi/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { apiKeysKey } from './get-api-keys';

/** DELETE /api/user/api-keys/:id: the key stops working at once and leaves the list. */
export function revokeApiKey(id: number): Promise<Envelope<null>> {
  return api.delete<null>(`/user/api-keys/${id}`, {});
}

export function useRevokeApiKey() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: revokeApiKey, onSuccess: () => queryClient.invalidateQueries({ queryKey: apiKeysKey }) });
}

import type { CreateApiKeyBody, CreatedApiKeyDto, Envelope } from '@resi/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { apiKeysKey } from './get-api-keys';

/** POST /api/user/api-keys → the new key with its secret in `key`, in this answer only. */
export function createApiKey(body: CreateApiKeyBody): Promise<Envelope<CreatedApiKeyDto>> {
  return api.post<CreatedApiKeyDto>('/user/api-keys', body);
}

export function useCreateApiKey() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: createApiKey, onSuccess: () => queryClient.invalidateQueries({ queryKey: apiKeysKey }) });
}

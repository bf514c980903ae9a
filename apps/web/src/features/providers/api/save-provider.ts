import type { Envelope, ProviderBody, ProviderDto } from '@resi/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { providersKey } from './provider-keys';

/**
 * POST /api/manage/providers (new) or PUT /api/manage/providers/:id. Masked secrets sent back as they came keep
 * the stored passwords.
 */
export function saveProvider(id: number | null, body: ProviderBody): Promise<Envelope<ProviderDto>> {
  return id === null ? api.post<ProviderDto>('/manage/providers', body) : api.put<ProviderDto>(`/manage/providers/${id}`, body);
}

export function useSaveProvider() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, body }: { id: number | null; body: ProviderBody }) => saveProvider(id, body),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: providersKey }),
  });
}

import type { PayConfigBody, PayConfigDto, Envelope } from '@resi/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { payConfigKey } from './get-pay-config';

/** POST /api/manage/pay-config: one method's switch, settings and secret changes → the method as saved (masked). */
export function savePayConfig(body: PayConfigBody): Promise<Envelope<PayConfigDto>> {
  return api.post<PayConfigDto>('/manage/pay-config', body);
}

export function useSavePayConfig() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: savePayConfig,
    onSuccess: ({ data }) => {
      queryClient.setQueryData<PayConfigDto[]>(payConfigKey, (list) => list?.map((m) => (m.method === data.method ? data : m)));
    },
  });
}

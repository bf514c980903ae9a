import type { Envelope, SupplySettings } from '@resi/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { supplySettingsKey } from './provider-keys';

/** POST /api/manage/supply `{directEgress, checkUrl, probeSeconds}`. */
export function saveSupplySettings(body: SupplySettings): Promise<Envelope<SupplySettings>> {
  return api.post<SupplySettings>('/manage/supply', body);
}

export function useSaveSupplySettings() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: saveSupplySettings,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: supplySettingsKey }),
  });
}

import type { AlertSettingsBody, AlertSettingsDto, Envelope } from '@resi/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { alertSettingsKey } from './get-alert-settings';

/** POST /api/user/alerts: each list sent replaces the saved one → the thresholds now in force, sorted. */
export function saveAlertSettings(body: AlertSettingsBody): Promise<Envelope<AlertSettingsDto>> {
  return api.post<AlertSettingsDto>('/user/alerts', body);
}

export function useSaveAlertSettings() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: saveAlertSettings, onSuccess: (res) => queryClient.setQueryData(alertSettingsKey, res.data) });
}

import type { AlertSettingsDto } from '@resi/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

export const alertSettingsKey = ['alert-settings'] as const;

/** GET /api/user/alerts → the thresholds in force (the defaults for a customer who never saved any). */
export async function getAlertSettings(): Promise<AlertSettingsDto> {
  return (await api.get<AlertSettingsDto>('/user/alerts')).data;
}

export const alertSettingsQueryOptions = () => queryOptions({ queryKey: alertSettingsKey, queryFn: getAlertSettings });

export function useAlertSettings() {
  return useQuery(alertSettingsQueryOptions());
}

import type { SupplySettings } from '@resi/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { supplySettingsKey } from './provider-keys';

/** GET /api/manage/supply → the demo's direct egress and the active probe's URL and period. */
export async function getSupplySettings(): Promise<SupplySettings> {
  return (await api.get<SupplySettings>('/manage/supply')).data;
}

export const supplySettingsQueryOptions = () => queryOptions({ queryKey: supplySettingsKey, queryFn: getSupplySettings });

export function useSupplySettings() {
  return useQuery(supplySettingsQueryOptions());
}

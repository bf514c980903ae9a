import type { DistributionSettings, Envelope } from '@resi/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { distributionKeys } from './distribution-keys';

/** GET /api/manage/distribution-settings (admins). */
export async function getDistributionSettings(): Promise<DistributionSettings> {
  return (await api.get<DistributionSettings>('/manage/distribution-settings')).data;
}

export function useDistributionSettings() {
  return useQuery({ queryKey: distributionKeys.settings, queryFn: getDistributionSettings, staleTime: 0 });
}

/** POST /api/manage/distribution-settings (admins): the default rate, hold, minimum payoff and payout methods. */
export function saveDistributionSettings(body: DistributionSettings): Promise<Envelope<DistributionSettings>> {
  return api.post<DistributionSettings>('/manage/distribution-settings', body);
}

export function useSaveDistributionSettings() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: saveDistributionSettings,
    onSuccess: (res) => {
      queryClient.setQueryData(distributionKeys.settings, res.data);
      // The minimum payoff and the methods are part of every distributor's figures.
      return queryClient.invalidateQueries({ queryKey: distributionKeys.info });
    },
  });
}

import type { SupplySettings } from '@resi/contract';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

const key = ['manage-supply'] as const;

/** GET /api/manage/supply: the provider template (password masked) and direct egress. */
export const supplyQueryOptions = queryOptions({ queryKey: key, queryFn: async () => (await api.get<SupplySettings>('/manage/supply')).data });

export const useSupplySettings = () => useQuery(supplyQueryOptions);

/** POST /api/manage/supply; the masked password sent back unchanged keeps the stored one. */
export function useSaveSupplySettings() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: SupplySettings) => api.post<SupplySettings>('/manage/supply', body),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: key }),
  });
}

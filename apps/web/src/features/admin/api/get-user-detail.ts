import type { AdminUserDetail } from '@resi/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { manageUsersKey } from './get-users';

/** GET /api/manage/user/:id → the user with grants, proxy accounts, static IPs, orders, logins and audit. */
export async function getUserDetail(id: number): Promise<AdminUserDetail> {
  return (await api.get<AdminUserDetail>(`/manage/user/${id}`)).data;
}

export const userDetailQueryOptions = (id: number) => queryOptions({ queryKey: [...manageUsersKey, 'detail', id], queryFn: () => getUserDetail(id), enabled: id > 0, staleTime: 0 });

export function useUserDetail(id: number) {
  return useQuery(userDetailQueryOptions(id));
}

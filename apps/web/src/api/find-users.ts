import type { AdminUserDto, Page } from '@resi/contract';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

/** GET /api/manage/user?email= (admins): users whose email matches, for picking one by email; `distributorsOnly` narrows to distributors. */
export async function findUsers(email: string, distributorsOnly = false): Promise<Page<AdminUserDto>> {
  return (await api.get<Page<AdminUserDto>>('/manage/user', { email, pageSize: 10, ...(distributorsOnly ? { distributor: 'true' } : {}) })).data;
}

export const findUsersQueryOptions = (email: string, distributorsOnly = false) =>
  queryOptions({
    queryKey: ['manage-users', 'find', email, distributorsOnly],
    queryFn: () => findUsers(email, distributorsOnly),
    enabled: email.trim().length > 0,
    placeholderData: keepPreviousData,
  });

export function useFindUsers(email: string, distributorsOnly = false) {
  return useQuery(findUsersQueryOptions(email, distributorsOnly));
}

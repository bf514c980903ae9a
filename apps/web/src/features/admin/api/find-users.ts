import type { AdminUserDto, Page } from '@resi/contract';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

/** GET /api/manage/user?email= : users whose email matches, for picking one by email. */
export async function findUsers(email: string): Promise<Page<AdminUserDto>> {
  return (await api.get<Page<AdminUserDto>>('/manage/user', { email, pageSize: 10 })).data;
}

export const findUsersQueryOptions = (email: string) =>
  queryOptions({ queryKey: ['manage-users', 'find', email], queryFn: () => findUsers(email), enabled: email.trim().length > 0, placeholderData: keepPreviousData });

export function useFindUsers(email: string) {
  return useQuery(findUsersQueryOptions(email));
}

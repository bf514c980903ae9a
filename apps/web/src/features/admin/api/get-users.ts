import type { AdminUserDto, Page, UserFilter, UserSort } from '@resi/contract';
import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

export type UserListQuery = Partial<UserFilter> & { sort?: UserSort; order?: 'asc' | 'desc'; page?: number; pageSize?: number };

export const manageUsersKey = ['manage-users'] as const;

/** GET /api/manage/user (filters, `sort`/`order`, paging) → a page of users with their figures. */
export async function getUsers(query: UserListQuery): Promise<Page<AdminUserDto>> {
  return (await api.get<Page<AdminUserDto>>('/manage/user', { ...query })).data;
}

export const usersQueryOptions = (query: UserListQuery) =>
  queryOptions({ queryKey: [...manageUsersKey, 'list', query], queryFn: () => getUsers(query), placeholderData: keepPreviousData, staleTime: 0 });

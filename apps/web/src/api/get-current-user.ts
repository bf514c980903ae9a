import type { UserDto } from '@resi/contract';
import { queryOptions, useQuery, type QueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { hasEmail } from '@/lib/navigation';
import { storage } from '@/lib/storage';

export const currentUserKey = ['current-user'] as const;

/** GET /api/user: the signed-in user; only an answer with an email counts (docs/console.md#session). */
export async function getCurrentUser(): Promise<UserDto> {
  return (await api.get<UserDto>('/user')).data;
}

/**
 * The router reloads the user on every navigation (docs/console.md#navigation-rules, rule 5); screens read
 * the cached copy, which starts from sessionStorage `userInfo`.
 */
export const currentUserQueryOptions = () =>
  queryOptions({
    queryKey: currentUserKey,
    queryFn: getCurrentUser,
    staleTime: Infinity,
    initialData: () => storage.getUserInfo() ?? undefined,
  });

/** The cached current user; never fetches by itself (the navigation loader does, once per navigation). */
export function useCurrentUser(): UserDto | null {
  return useQuery({ ...currentUserQueryOptions(), enabled: false }).data ?? null;
}

export class SessionLostError extends Error {}

/**
 * Reloads the user (one request per call, never merged with one in flight); a failure or an answer
 * without email means the session is gone.
 */
export async function reloadCurrentUser(queryClient: QueryClient): Promise<UserDto> {
  const user = await getCurrentUser();
  if (!hasEmail(user)) throw new SessionLostError('current user has no email');
  rememberUser(queryClient, user);
  return user;
}

/** After login/register: the user the server returned becomes the current user. */
export function rememberUser(queryClient: QueryClient, user: UserDto): void {
  storage.setUserInfo(user);
  queryClient.setQueryData(currentUserKey, user);
}

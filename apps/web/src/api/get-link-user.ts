import type { UserDto } from '@resi/contract';
import { queryOptions } from '@tanstack/react-query';
import { ApiError, request } from '@/lib/api-client';
import { hasEmail } from '@/lib/navigation';

/**
 * GET /api/user as the session a link carries, before the tab takes it: the question about the link names
 * the account it signs in to. Null when the link's session signs nobody in (401, or an answer without an
 * email, as rule 5 reads it); other failures are errors.
 */
export const linkUserQueryOptions = (token: string) =>
  queryOptions({
    queryKey: ['link-user', token],
    queryFn: async ({ signal }): Promise<UserDto | null> => {
      try {
        const user = (await request<UserDto>('/user', { token, signal })).data;
        return hasEmail(user) ? user : null;
      } catch (error) {
        if (error instanceof ApiError && error.status === 401) return null;
        throw error;
      }
    },
    staleTime: Infinity,
    // The question says what went wrong itself.
    meta: { silent: true },
  });

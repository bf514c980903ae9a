import type { AdminUserDto, Envelope, UpdateUserBody } from '@resi/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { manageUsersKey } from './get-users';

/** POST /api/manage/user/:id `{status?, role?, isDistributor?, commissionRate?, remark?}` → the user as listed. */
export function updateUser({ id, ...body }: UpdateUserBody & { id: number }): Promise<Envelope<AdminUserDto>> {
  return api.post<AdminUserDto>(`/manage/user/${id}`, body);
}

export function useUpdateUser() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: updateUser, onSuccess: () => queryClient.invalidateQueries({ queryKey: manageUsersKey }) });
}

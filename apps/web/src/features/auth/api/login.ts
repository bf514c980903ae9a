import type { LoginBody, UserDto, Envelope } from '@resi/contract';
import { useMutation } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

/** POST /api/login → `{data: user, token, message}`. */
export function login(body: LoginBody): Promise<Envelope<UserDto>> {
  return api.post<UserDto>('/login', body);
}

export function useLogin() {
  return useMutation({ mutationFn: login });
}

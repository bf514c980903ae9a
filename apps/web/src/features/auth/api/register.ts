import type { RegisterBody, UserDto, Envelope } from '@resi/contract';
import { useMutation } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

/** POST /api/register → `{data: user, token, message}`. */
export function register(body: RegisterBody): Promise<Envelope<UserDto>> {
  return api.post<UserDto>('/register', body);
}

export function useRegister() {
  return useMutation({ mutationFn: register });
}

import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import { api } from '@/lib/api-client';
import { loginRedirect } from '@/lib/navigation';
import { notify } from '@/lib/notify';
import { storage } from '@/lib/storage';

/** POST /api/logout: revokes this session on the server. */
export async function logout(): Promise<string | undefined> {
  return (await api.post<null>('/logout')).message;
}

/** Logs out, then forgets the session locally whatever the server said, and goes to login. */
export function useLogout() {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  return useMutation({
    mutationFn: logout,
    meta: { silent: true },
    onSuccess: (message) => {
      if (message) notify.success(message);
    },
    onSettled: () => {
      storage.clearSession();
      queryClient.clear();
      void navigate(loginRedirect(Date.now()), { replace: true });
    },
  });
}

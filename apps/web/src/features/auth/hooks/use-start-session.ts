import type { UserDto } from '@resi/contract';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { rememberUser } from '@/api/get-current-user';
import type { Envelope } from '@/lib/api-client';
import { HOME_PATH } from '@/lib/constants';
import { notify } from '@/lib/notify';
import { storage } from '@/lib/storage';

/**
 * docs/console.md#session: a login/registration answer carrying a token stores it (and the user) and shows the
 * success message; one without a token is an error message.
 */
export function useStartSession() {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const { t } = useTranslation();
  return (response: Envelope<UserDto>): boolean => {
    if (!response.token) {
      notify.error(response.message || t('auth.noToken'));
      return false;
    }
    storage.setToken(response.token);
    rememberUser(queryClient, response.data);
    notify.success(response.message || t('auth.welcome'));
    void navigate(HOME_PATH, { replace: true });
    return true;
  };
}

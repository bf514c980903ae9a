import type { Envelope, UserDto } from '@resi/contract';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate } from 'react-router';
import { rememberUser } from '@/api/get-current-user';
import { HOME_PATH } from '@/lib/constants';
import { RETURN_PARAM, returnPath } from '@/lib/navigation';
import { notify } from '@/lib/notify';
import { storage } from '@/lib/storage';

/**
 * docs/console.md#session: a login/registration answer carrying a token stores it (and the user) and shows the
 * success message; one without a token is an error message. After it, the page the visitor asked for.
 */
export function useStartSession() {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const { search } = useLocation();
  const { t } = useTranslation();
  return (response: Envelope<UserDto>): boolean => {
    if (!response.token) {
      notify.error(response.message || t('auth.noToken'));
      return false;
    }
    storage.setToken(response.token);
    rememberUser(queryClient, response.data);
    notify.success(response.message || t('auth.welcome'));
    // Back to the page that was asked for, when it is one of ours; else Account Home.
    void navigate(returnPath(new URLSearchParams(search).get(RETURN_PARAM)) ?? HOME_PATH, { replace: true });
    return true;
  };
}

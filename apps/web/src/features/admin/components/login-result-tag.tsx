import type { LoginResult } from '@resi/contract';
import { Tag } from 'antd';
import { useTranslation } from 'react-i18next';

const COLORS: Record<LoginResult, string> = {
  success: 'success',
  'bad-password': 'error',
  'unknown-account': 'warning',
  'bad-captcha': 'default',
  locked: 'magenta',
  disabled: 'default',
  invalid: 'default',
};

/** What a sign-in attempt came to, in the interface language. */
export function LoginResultTag({ result }: { result: LoginResult }) {
  const { t } = useTranslation();
  return (
    <Tag color={COLORS[result]} data-testid="login-result">
      {t(`logins.result.${result}`)}
    </Tag>
  );
}

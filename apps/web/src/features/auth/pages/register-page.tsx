import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { LOGIN_PATH } from '@/lib/constants';
import { AuthLayout } from '../components/auth-layout';
import { GoBackLink } from '../components/go-back-link';
import { RegisterForm } from '../components/register-form';

/** /user/register, also the invite link target: `/manage/user/register?invite=CODE`. */
export default function RegisterPage() {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const invite = params.get('invite')?.trim() || undefined;
  return (
    <AuthLayout title={t('auth.register.title')} subtitle={t('auth.register.subtitle')}>
      <RegisterForm inviteCode={invite} />
      <hr className="auth-divider" />
      <div className="auth-switch">
        <span>{t('auth.register.haveAccount')}</span>{' '}
        <Link to={LOGIN_PATH} data-testid="to-login">
          {t('auth.register.toLogin')}
        </Link>
      </div>
      <div className="auth-back">
        <GoBackLink fallback={LOGIN_PATH} />
      </div>
    </AuthLayout>
  );
}

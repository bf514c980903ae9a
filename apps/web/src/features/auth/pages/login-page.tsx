import { lazy, Suspense, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { HOME_PATH, REGISTER_PATH } from '@/lib/constants';
import { AuthLayout } from '../components/auth-layout';
import { GoBackLink } from '../components/go-back-link';
import { LoginForm } from '../components/login-form';

// Most visits only log in: the reset dialog (a modal, its form and the mail-code sender) loads when asked for.
const ForgotPasswordModal = lazy(() => import('../components/forgot-password-modal').then((m) => ({ default: m.ForgotPasswordModal })));

export default function LoginPage() {
  const { t } = useTranslation();
  const [forgotOpen, setForgotOpen] = useState(false);
  // Once opened it stays mounted, so that it can animate closed.
  const [forgotLoaded, setForgotLoaded] = useState(false);
  if (forgotOpen && !forgotLoaded) setForgotLoaded(true);
  const [prefill, setPrefill] = useState<string | undefined>();
  return (
    <AuthLayout title={t('auth.login.title')} subtitle={t('auth.login.subtitle')}>
      <LoginForm key={prefill ?? ''} initialAccount={prefill} onForgot={() => setForgotOpen(true)} />
      <hr className="auth-divider" />
      <div className="auth-switch">
        <span>{t('auth.login.noAccount')}</span>{' '}
        <Link to={REGISTER_PATH} data-testid="to-register">
          {t('auth.login.toRegister')}
        </Link>
      </div>
      <div className="auth-back">
        <GoBackLink fallback={HOME_PATH} />
      </div>
      {forgotLoaded ? (
        <Suspense fallback={null}>
          <ForgotPasswordModal
            open={forgotOpen}
            onClose={() => setForgotOpen(false)}
            onDone={(email) => {
              setForgotOpen(false);
              setPrefill(email);
            }}
          />
        </Suspense>
      ) : null}
    </AuthLayout>
  );
}

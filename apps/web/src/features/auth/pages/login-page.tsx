import { Divider } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { HOME_PATH, REGISTER_PATH } from '@/lib/constants';
import { AuthLayout } from '../components/auth-layout';
import { ForgotPasswordModal } from '../components/forgot-password-modal';
import { GoBackLink } from '../components/go-back-link';
import { LoginForm } from '../components/login-form';

export default function LoginPage() {
  const { t } = useTranslation();
  const [forgotOpen, setForgotOpen] = useState(false);
  const [prefill, setPrefill] = useState<string | undefined>();
  return (
    <AuthLayout title={t('auth.login.title')} subtitle={t('auth.login.subtitle')}>
      <LoginForm key={prefill ?? ''} initialAccount={prefill} onForgot={() => setForgotOpen(true)} />
      <Divider plain className="auth-divider" />
      <div className="auth-switch">
        <span>{t('auth.login.noAccount')}</span>{' '}
        <Link to={REGISTER_PATH} data-testid="to-register">
          {t('auth.login.toRegister')}
        </Link>
      </div>
      <div className="auth-back">
        <GoBackLink fallback={HOME_PATH} />
      </div>
      <ForgotPasswordModal
        open={forgotOpen}
        onClose={() => setForgotOpen(false)}
        onDone={(email) => {
          setForgotOpen(false);
          setPrefill(email);
        }}
      />
    </AuthLayout>
  );
}

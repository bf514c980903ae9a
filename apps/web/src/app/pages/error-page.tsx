import { Button, Result } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { HOME_PATH, LOGIN_PATH } from '@/lib/constants';
import { AntdProvider } from '../antd-provider';

/** /error: public, outside the layout, and kept alive (docs/console.md#pages). */
export default function ErrorPage() {
  const { t } = useTranslation();
  return (
    // The page's own element outermost: a kept-alive page is hidden by <Activity> through its top element.
    <div className="page-center" data-testid="error-page">
      <AntdProvider>
        <Result
          status="warning"
          title={t('error.title')}
          subTitle={t('error.description')}
          extra={[
            <Link key="home" to={HOME_PATH}>
              <Button type="primary">{t('error.home')}</Button>
            </Link>,
            <Link key="login" to={LOGIN_PATH}>
              <Button>{t('error.login')}</Button>
            </Link>,
          ]}
        />
      </AntdProvider>
    </div>
  );
}

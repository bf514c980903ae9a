import { CloseCircleFilled } from '@ant-design/icons';
import { Button } from 'antd';
import { useTranslation } from 'react-i18next';

/**
 * Router error boundary: a page chunk failed to load or a page crashed. Built from what every page has
 * already loaded (no antd Result, whose illustrations would weigh on every first load), so it shows even
 * when chunks cannot be fetched.
 */
export function RouteError() {
  const { t } = useTranslation();
  return (
    <div className="page-center">
      <div className="route-error" role="alert">
        <CloseCircleFilled className="route-error__icon" />
        <h1 className="route-error__title">{t('common.crash.title')}</h1>
        <p className="route-error__text">{t('common.crash.description')}</p>
        <Button type="primary" onClick={() => window.location.reload()}>
          {t('common.reload')}
        </Button>
      </div>
    </div>
  );
}

import { useTranslation } from 'react-i18next';
import { CloseCircleFilled, Icon } from '@/components/lite/icons';
import { LiteButton } from '@/components/lite/lite-button';

/**
 * Router error boundary: a page chunk failed to load or a page crashed. Built from what every page has
 * already loaded (no antd, which the login page does not load), so it shows even when chunks cannot be fetched.
 */
export function RouteError() {
  const { t } = useTranslation();
  return (
    <div className="page-center">
      <div className="route-error" role="alert">
        <Icon icon={CloseCircleFilled} className="route-error__icon" />
        <h1 className="route-error__title">{t('common.crash.title')}</h1>
        <p className="route-error__text">{t('common.crash.description')}</p>
        <LiteButton variant="primary" onClick={() => window.location.reload()}>
          {t('common.reload')}
        </LiteButton>
      </div>
    </div>
  );
}

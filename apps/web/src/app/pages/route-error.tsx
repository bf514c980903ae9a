import { Button, Result } from 'antd';
import { useTranslation } from 'react-i18next';

/** Router error boundary: a page chunk failed to load or a page crashed. */
export function RouteError() {
  const { t } = useTranslation();
  return (
    <div className="page-center">
      <Result
        status="error"
        title={t('common.crash.title')}
        subTitle={t('common.crash.description')}
        extra={
          <Button type="primary" onClick={() => window.location.reload()}>
            {t('common.reload')}
          </Button>
        }
      />
    </div>
  );
}

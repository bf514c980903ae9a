import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useRouteError } from 'react-router';
import { CloseCircleFilled, DisconnectOutlined, Icon } from '@/components/lite/icons';
import { LiteButton } from '@/components/lite/lite-button';
import { buildUrl } from '@/lib/api-client';
import { isUnreachable, serverReachability } from '@/lib/server-reachability';

/**
 * Router error boundary: a page chunk failed to load, the first current-user check got no answer, or a page
 * crashed. Built from what every page has already loaded (no antd, which the login page does not load), so it
 * shows even when chunks cannot be fetched.
 *
 * When the server could not be reached (DESIGN §16) it says so, and Retry first asks the server whether it
 * answers again: reloading a page whose server is down would replace the console with the browser's own
 * error page. The session stays either way.
 */
export function RouteError() {
  const { t } = useTranslation();
  const unreachable = isUnreachable(useRouteError());
  const [checking, setChecking] = useState(false);
  const [stillDown, setStillDown] = useState(false);
  // Inside the layout, this view says it in place of its notice.
  useEffect(() => (unreachable ? serverReachability.coverNotice() : undefined), [unreachable]);

  const retry = async () => {
    if (!unreachable) return window.location.reload();
    setChecking(true);
    try {
      const answer = await fetch(buildUrl('/site'), { cache: 'no-store' });
      if (answer.status < 500) return window.location.reload();
    } catch {
      // Still no answer: said below.
    }
    setChecking(false);
    setStillDown(true);
  };

  return (
    <div className="page-center">
      <div className="route-error" role="alert" data-testid={unreachable ? 'page-unreachable' : 'route-error'}>
        <Icon icon={unreachable ? DisconnectOutlined : CloseCircleFilled} className="route-error__icon" />
        <h1 className="route-error__title">{t(unreachable ? 'common.unreachable.title' : 'common.crash.title')}</h1>
        <p className="route-error__text">{t(unreachable ? 'common.unreachable.description' : 'common.crash.description')}</p>
        {stillDown ? (
          <p className="route-error__text" data-testid="server-still-down">
            {t('common.unreachable.stillDown')}
          </p>
        ) : null}
        <LiteButton variant="primary" loading={checking} onClick={() => void retry()} data-testid="route-error-retry">
          {t(unreachable ? 'common.retry' : 'common.reload')}
        </LiteButton>
      </div>
    </div>
  );
}

import { Activity, lazy, Suspense, useEffect, useState, useSyncExternalStore } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation, useOutlet } from 'react-router';
import { useSite } from '@/api/get-site';
import { PageLoading } from '@/components/page-loading';
import { documentTitle } from '@/lib/navigation';
import { pendingSessionSwitch } from '@/lib/session-switch';
import { appRoutes, findRoute } from './routes';

const keepAliveRoutes = appRoutes.filter((route) => route.keepAlive);
// Asked only when a link brings a session token: its dialog (and antd's Modal) load then.
const SessionSwitchDialog = lazy(() => import('./session-switch-dialog').then((m) => ({ default: m.SessionSwitchDialog })));

/**
 * The root view only hosts the routed page (docs/console.md#pages). Keep-alive routes (the error page) stay mounted,
 * hidden with <Activity>, once visited; every other page unmounts when navigated away from. It also
 * hosts the question asked before a link's token signs the tab in.
 */
export function RootView() {
  const location = useLocation();
  const outlet = useOutlet();
  const current = findRoute(location.pathname);
  const [visited, setVisited] = useState<readonly string[]>([]);
  if (current?.keepAlive && !visited.includes(current.path)) setVisited([...visited, current.path]);

  useDocumentTitle(current?.title);
  // Once asked, the dialog stays mounted so that it can animate closed.
  const switchAsked = useSyncExternalStore(pendingSessionSwitch.subscribe, pendingSessionSwitch.get) !== null;
  const [dialogLoaded, setDialogLoaded] = useState(false);
  if (switchAsked && !dialogLoaded) setDialogLoaded(true);

  return (
    <>
      {keepAliveRoutes
        .filter((route) => visited.includes(route.path) || route === current)
        .map((route) => {
          const Page = route.page;
          return (
            <Activity key={route.path} mode={route === current ? 'visible' : 'hidden'}>
              <Suspense fallback={<PageLoading full />}>
                <Page />
              </Suspense>
            </Activity>
          );
        })}
      {current?.keepAlive ? null : outlet}
      {dialogLoaded ? (
        <Suspense fallback={null}>
          <SessionSwitchDialog />
        </Suspense>
      ) : null}
    </>
  );
}

/** `<product name> - <route title>` in the current language (navigation rule 3, docs/console.md#navigation-rules). */
function useDocumentTitle(titleKey: string | undefined) {
  const { t, i18n } = useTranslation();
  const { appName } = useSite();
  useEffect(() => {
    document.title = documentTitle(appName, titleKey ? t(titleKey) : null);
  }, [appName, titleKey, t, i18n.language]);
}

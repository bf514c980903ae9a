import type { QueryClient } from '@tanstack/react-query';
import { lazy, Suspense } from 'react';
import type { Lang } from '@resi/contract';
import { createBrowserRouter, matchPath, Navigate, useLocation, type RouteObject } from 'react-router';
import { PageLoading } from '@/components/page-loading';
import { HOME_PATH, ROUTER_BASENAME } from '@/lib/constants';
import { consoleTexts, currentLang } from '@/lib/i18n';
import { loginRedirect } from '@/lib/navigation';
import { storage } from '@/lib/storage';
import { createNavigationLoader, type NavigationDeps } from './navigation-loader';
import { RouteError } from './pages/route-error';
import { RootView } from './root-view';
import { RoutePage } from './route-page';
import { appRoutes } from './routes';

const NotFound = lazy(() => import('./pages/not-found'));
// Not needed by the public pages (login, register): their first load goes without the menu and header, antd
// and the console's texts. The texts are asked for with the layout, not after it (app/antd-provider.tsx).
const loadLayout = (lang: Lang = currentLang()) => {
  void consoleTexts(lang).catch(() => {});
  return import('./layout/app-layout');
};
const AppLayout = lazy(() => loadLayout().then((m) => ({ default: m.AppLayout })));

/**
 * On a first load, the page's chunk is fetched at once, beside the language pack and the sign-in check, instead
 * of after them; for a page inside the layout by a tab that holds a session (or brings one in `?token=`), the
 * layout's chunk and the console's texts too (four round trips one after the other before anything was drawn
 * on a phone's network, docs/console.md#first-load). A signed-out tab fetches no layout: the rules send it to
 * the login page. Nothing is drawn from these until the navigation rules have run; a failed fetch is left to
 * the page's own import, which shows it.
 */
export function preloadFirstPage(location: Pick<Location, 'pathname' | 'search'>, lang: Lang): void {
  const path = location.pathname.startsWith(ROUTER_BASENAME) ? location.pathname.slice(ROUTER_BASENAME.length) || '/' : null;
  const route = path === null ? undefined : appRoutes.find((r) => matchPath(r.path, path));
  if (!route) return;
  if (route.layout) {
    if (!storage.getToken() && !new URLSearchParams(location.search).has('token')) return;
    void loadLayout(lang).catch(() => {});
  }
  void route.load().catch(() => {});
}

/** `/` → `/center`, keeping the query (lang, channel…). */
function RedirectHome() {
  const { search } = useLocation();
  return <Navigate to={`${HOME_PATH}${search}`} replace />;
}

/** Router objects from the route table: layout children, then the public pages outside the layout. */
export function buildRouteObjects(): RouteObject[] {
  const toObject = (route: (typeof appRoutes)[number]): RouteObject => ({
    path: route.path,
    // Kept-alive pages are rendered by RootView so they survive navigation.
    element: route.keepAlive ? null : <RoutePage route={route} />,
    // Inside the layout, a page that cannot load (its chunk, with the server down) fails alone: the menu stays.
    errorElement: route.layout ? <RouteError /> : undefined,
    handle: { name: route.name },
  });
  return [
    { index: true, element: <RedirectHome /> },
    {
      element: (
        <Suspense fallback={<PageLoading full />}>
          <AppLayout />
        </Suspense>
      ),
      children: [
        ...appRoutes.filter((r) => r.layout).map(toObject),
        { path: '*', element: <NotFound /> },
      ],
    },
    ...appRoutes.filter((r) => !r.layout).map(toObject),
  ];
}

/** The whole tree: a root route whose loader applies the navigation rules, over the table's routes. */
export function appRouteTree(deps: NavigationDeps): RouteObject[] {
  return [
    {
      id: 'root',
      path: '/',
      loader: createNavigationLoader(deps),
      // Every navigation runs the navigation rules, not only those that change params.
      shouldRevalidate: () => true,
      element: <RootView />,
      errorElement: <RouteError />,
      hydrateFallbackElement: <PageLoading full />,
      children: buildRouteObjects(),
    },
  ];
}

export function createAppRouter(queryClient: QueryClient) {
  let router: ReturnType<typeof createBrowserRouter> | null = null;
  router = createBrowserRouter(
    appRouteTree({ queryClient, onSessionLost: () => void router?.navigate(loginRedirect(Date.now()), { replace: true }) }),
    { basename: ROUTER_BASENAME },
  );
  return router;
}

import type { QueryClient } from '@tanstack/react-query';
import { lazy, Suspense } from 'react';
import { createBrowserRouter, Navigate, useLocation, type RouteObject } from 'react-router';
import { PageLoading } from '@/components/page-loading';
import { HOME_PATH, ROUTER_BASENAME } from '@/lib/constants';
import { consoleTexts, currentLang } from '@/lib/i18n';
import { loginRedirect } from '@/lib/navigation';
import { createNavigationLoader, type NavigationDeps } from './navigation-loader';
import { RouteError } from './pages/route-error';
import { RootView } from './root-view';
import { RoutePage } from './route-page';
import { appRoutes } from './routes';

const NotFound = lazy(() => import('./pages/not-found'));
// Not needed by the public pages (login, register): their first load goes without the menu and header, antd
// and the console's texts. The texts are asked for with the layout, not after it (app/antd-provider.tsx).
const AppLayout = lazy(() => {
  void consoleTexts(currentLang()).catch(() => {});
  return import('./layout/app-layout').then((m) => ({ default: m.AppLayout }));
});

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

import { lazy, Suspense } from 'react';
import { useCurrentUser } from '@/api/get-current-user';
import { PageLoading } from '@/components/page-loading';
import { mayOpen } from '@/lib/access';
import type { AppRoute } from './routes';

// Seen only by a role that follows a link it may not open.
const Forbidden = lazy(() => import('./pages/forbidden').then((m) => ({ default: m.Forbidden })));

/** One routed page: its lazy chunk, or the localized 403 state when the role may not open it. */
export function RoutePage({ route }: { route: AppRoute }) {
  const user = useCurrentUser();
  const Page = route.access !== 'public' && !mayOpen(route.access, user) ? Forbidden : route.page;
  return (
    <Suspense fallback={<PageLoading full={!route.layout} />}>
      <Page />
    </Suspense>
  );
}

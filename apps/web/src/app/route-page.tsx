import { Suspense } from 'react';
import { useCurrentUser } from '@/api/get-current-user';
import { PageLoading } from '@/components/page-loading';
import { mayOpen } from '@/lib/access';
import { Forbidden } from './pages/forbidden';
import type { AppRoute } from './routes';

/** One routed page: its lazy chunk, or the localized 403 state when the role may not open it. */
export function RoutePage({ route }: { route: AppRoute }) {
  const user = useCurrentUser();
  if (route.access !== 'public' && !mayOpen(route.access, user)) return <Forbidden />;
  const Page = route.page;
  return (
    <Suspense fallback={<PageLoading full={!route.layout} />}>
      <Page />
    </Suspense>
  );
}

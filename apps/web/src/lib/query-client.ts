import { MutationCache, QueryCache, QueryClient } from '@tanstack/react-query';
import { notify } from './notify';

declare module '@tanstack/react-query' {
  interface Register {
    mutationMeta: { silent?: boolean };
    queryMeta: { silent?: boolean };
  }
}

/**
 * Server state. Failed requests show the API client's error text as a toast here, once, so no screen
 * handles error texts itself; `meta: { silent: true }` opts out (a poll that simply tries again).
 */
export function createQueryClient(): QueryClient {
  return new QueryClient({
    queryCache: new QueryCache({
      onError: (error, query) => {
        if (query.meta?.silent) return;
        notify.error(error.message);
      },
    }),
    mutationCache: new MutationCache({
      onError: (error, _vars, _ctx, mutation) => {
        if (mutation.meta?.silent) return;
        notify.error(error.message);
      },
    }),
    defaultOptions: {
      queries: { retry: false, refetchOnWindowFocus: false, staleTime: 30_000 },
      mutations: { retry: false },
    },
  });
}

import { QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { I18nextProvider } from 'react-i18next';
import { i18n } from '@/lib/i18n';

/**
 * What every page runs on: texts and server state. antd's theme and locale are not here: the login and
 * register pages are drawn without antd, so it comes with the layout and the pages that use it
 * (app/antd-provider.tsx, docs/console.md#first-load).
 */
export function AppProvider({ queryClient, children }: { queryClient: QueryClient; children: ReactNode }) {
  return (
    <I18nextProvider i18n={i18n}>
      <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>
    </I18nextProvider>
  );
}

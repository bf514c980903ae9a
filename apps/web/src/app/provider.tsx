import { normalizeLang } from '@resi/contract';
import { QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import { ConfigProvider, message, theme as antdTheme } from 'antd';
import { useEffect, type ReactNode } from 'react';
import { I18nextProvider, useTranslation } from 'react-i18next';
import { antdLocale, i18n } from '@/lib/i18n';
import { bindNotify } from '@/lib/notify';
import { theme } from './theme';

/**
 * What antd's <App> gave, without its modal and notification APIs (which every first load would fetch):
 * the theme's text style for the whole console, and the context-aware message API handed to lib/notify.
 * A confirm dialog takes Modal.useModal() where it is asked.
 */
function AppShell({ children }: { children: ReactNode }) {
  const [messageApi, messageHolder] = message.useMessage();
  const { token } = antdTheme.useToken();
  useEffect(() => {
    bindNotify(messageApi);
    return () => bindNotify(null);
  }, [messageApi]);
  const textStyle = { color: token.colorText, fontSize: token.fontSize, lineHeight: token.lineHeight, fontFamily: token.fontFamily };
  return (
    <div className="antd-app-root" style={textStyle}>
      {messageHolder}
      {children}
    </div>
  );
}

function LocalizedConfig({ children }: { children: ReactNode }) {
  const { i18n: instance } = useTranslation();
  // antd's own texts follow the console language (docs/console.md#languages-and-titles); they come in
  // the language's pack, loaded before i18next switches to it.
  const locale = antdLocale(normalizeLang(instance.language));
  return (
    <ConfigProvider locale={locale} theme={theme}>
      <AppShell>{children}</AppShell>
    </ConfigProvider>
  );
}

export function AppProvider({ queryClient, children }: { queryClient: QueryClient; children: ReactNode }) {
  return (
    <I18nextProvider i18n={i18n}>
      <QueryClientProvider client={queryClient}>
        <LocalizedConfig>{children}</LocalizedConfig>
      </QueryClientProvider>
    </I18nextProvider>
  );
}

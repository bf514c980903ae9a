import type { Lang } from '@resi/contract';
import { normalizeLang } from '@resi/contract';
import { QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import { App as AntdApp, ConfigProvider } from 'antd';
import type { Locale } from 'antd/es/locale';
import enUS from 'antd/locale/en_US';
import zhCN from 'antd/locale/zh_CN';
import zhTW from 'antd/locale/zh_TW';
import { useEffect, type ReactNode } from 'react';
import { I18nextProvider, useTranslation } from 'react-i18next';
import { i18n } from '@/lib/i18n';
import { bindNotify } from '@/lib/notify';
import { theme } from './theme';

/** antd's own texts follow the console language (docs/console.md#languages-and-titles). */
export const ANTD_LOCALES: Record<Lang, Locale> = { en: enUS, 'zh-cn': zhCN, zh: zhTW };

/** Hands antd's context-aware message API to lib/notify. */
function NotifyBridge() {
  const { message } = AntdApp.useApp();
  useEffect(() => {
    bindNotify(message);
    return () => bindNotify(null);
  }, [message]);
  return null;
}

function LocalizedConfig({ children }: { children: ReactNode }) {
  const { i18n: instance } = useTranslation();
  const lang = normalizeLang(instance.language);
  return (
    <ConfigProvider locale={ANTD_LOCALES[lang]} theme={theme}>
      <AntdApp className="antd-app-root">
        <NotifyBridge />
        {children}
      </AntdApp>
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

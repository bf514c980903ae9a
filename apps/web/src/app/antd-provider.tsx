import { normalizeLang } from '@resi/contract';
import { ConfigProvider, message, theme as antdTheme } from 'antd';
import { use, useEffect, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { antdLocale, consoleTexts } from '@/lib/i18n';
import { bindNotify } from '@/lib/notify';
import { theme } from './theme';

/**
 * What antd's <App> gave, without its modal and notification APIs: the theme's text style, and the
 * context-aware message API handed to lib/notify. A confirm dialog takes Modal.useModal() where it is asked.
 */
function AntdShell({ children, overlay }: { children: ReactNode; overlay: boolean }) {
  const [messageApi, messageHolder] = message.useMessage();
  const { token } = antdTheme.useToken();
  useEffect(() => bindNotify(messageApi), [messageApi]);
  const textStyle = { color: token.colorText, fontSize: token.fontSize, lineHeight: token.lineHeight, fontFamily: token.fontFamily };
  return (
    <div className={overlay ? 'antd-app-root antd-app-root--overlay' : 'antd-app-root'} style={textStyle}>
      {messageHolder}
      {children}
    </div>
  );
}

/**
 * antd's theme and texts in the console language, around whatever draws with antd: the layout, the error page,
 * dialogs opened from the public pages. Not at the root, so that login loads without antd
 * (docs/console.md#first-load). Suspends until the console's texts are in. `overlay`: what it wraps is only
 * drawn over the page (a dialog kept mounted beside it), so its box takes no room: a full-height one added a
 * screen of blank page below every page a link's question had been asked over.
 */
export function AntdProvider({ children, overlay = false }: { children: ReactNode; overlay?: boolean }) {
  const { i18n } = useTranslation();
  const lang = normalizeLang(i18n.language);
  // The console's texts and antd's own (docs/console.md#languages-and-titles) come in the language's console
  // part: the first page drawn with antd waits for it; a later switch loads it before i18next changes.
  use(consoleTexts(lang));
  const locale = antdLocale(lang);
  return (
    // antd puts a space between two Chinese characters on a button (重 設); the console's texts are written as
    // they should read.
    <ConfigProvider locale={locale} theme={theme} button={{ autoInsertSpace: false }}>
      <AntdShell overlay={overlay}>{children}</AntdShell>
    </ConfigProvider>
  );
}

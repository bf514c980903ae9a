import { ConfigProvider, message } from 'antd';
import { theme } from '@/app/theme';
import { antdLocale, currentLang } from './i18n';

let configured = false;

/**
 * antd's static message, themed like the console: for toasts on a page drawn without antd (login,
 * register), fetched with the first of them (lib/notify.ts).
 */
export function staticMessage(): typeof message {
  if (!configured) {
    ConfigProvider.config({
      holderRender: (children) => (
        <ConfigProvider theme={theme} locale={antdLocale(currentLang())}>
          {children}
        </ConfigProvider>
      ),
    });
    configured = true;
  }
  return message;
}

import type { MessageInstance } from 'antd/es/message/interface';
import { message as staticMessage } from 'antd';
import { TOAST_DURATION_MS } from './constants';

/*
 * Toasts (antd message, 3 s by default). The instance from antd's <App> follows the theme; the app
 * shell hands it over with bindNotify(); before that the static API is used.
 */
let instance: MessageInstance | null = null;

export function bindNotify(api: MessageInstance | null): void {
  instance = api;
}

const seconds = TOAST_DURATION_MS / 1000;

function show(type: 'success' | 'error' | 'info' | 'warning', content: string): void {
  (instance ?? staticMessage).open({ type, content, duration: seconds });
}

export const notify = {
  success: (content: string) => show('success', content),
  error: (content: string) => show('error', content),
  info: (content: string) => show('info', content),
  warning: (content: string) => show('warning', content),
};

import type { MessageInstance } from 'antd/es/message/interface';
import { TOAST_DURATION_MS } from './constants';

/*
 * Toasts (antd message, 3 s by default). Where antd is on the page its provider hands over the instance
 * that follows the theme (bindNotify, app/antd-provider.tsx). Where it is not (login, register), antd's
 * message is fetched with the first toast, themed the same way (static-notify.tsx).
 */
const bound: MessageInstance[] = [];

/** Makes `api` the one toasts go to while it is bound; returns the unbinding. */
export function bindNotify(api: MessageInstance): () => void {
  bound.push(api);
  return () => {
    const at = bound.lastIndexOf(api);
    if (at >= 0) bound.splice(at, 1);
  };
}

const seconds = TOAST_DURATION_MS / 1000;

function show(type: 'success' | 'error' | 'info' | 'warning', content: string): void {
  const instance = bound.at(-1);
  if (instance) instance.open({ type, content, duration: seconds });
  else void import('./static-notify').then(({ staticMessage }) => staticMessage().open({ type, content, duration: seconds }));
}

export const notify = {
  success: (content: string) => show('success', content),
  error: (content: string) => show('error', content),
  info: (content: string) => show('info', content),
  warning: (content: string) => show('warning', content),
};

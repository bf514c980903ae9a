import { render } from '@testing-library/react';
import { message } from 'antd';
import type { MessageInstance } from 'antd/es/message/interface';

let host: MessageInstance | undefined;
let container: HTMLElement | undefined;

function Host() {
  const [api, holder] = message.useMessage();
  // Taken while rendering, not in an effect: a toast asked for inside another act() scope needs it at once.
  host = api;
  return holder;
}

/**
 * Stands in for antd's static message (lib/static-notify.tsx) in component tests that render without the
 * console's antd provider. The static message keeps its own React root and a 3 s close timer alive after
 * the test; when that timer fired once jsdom was gone, React failed with "window is not defined" and
 * vitest failed the run. This host is mounted through Testing Library, so the cleanup after each test
 * unmounts it and its timers find nothing left to update. Toasts still render into the page as antd draws them.
 */
export function testToastHost(): MessageInstance {
  // The cleanup takes the host's container out of the page: the first toast of the next test mounts a new one.
  if (!container?.isConnected) container = render(<Host />).container;
  return host!;
}

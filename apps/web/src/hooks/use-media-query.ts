import { useSyncExternalStore } from 'react';

/** antd's Grid breakpoints, as the media queries its own responsive helpers ask. */
export const BREAKPOINT = { md: '(min-width: 768px)', lg: '(min-width: 992px)' } as const;

const lists = new Map<string, MediaQueryList>();
const listOf = (query: string) => {
  let list = lists.get(query);
  if (!list) {
    list = window.matchMedia(query);
    lists.set(query, list);
  }
  return list;
};

/**
 * Whether a media query holds, known on the first render. antd's Grid.useBreakpoint() learns the screen in an
 * effect: each component asking drew once as on a wide screen, then at once again (synchronously, with all it
 * holds) as on a phone; on Get Proxy that was a long task of 440 ms on a phone (docs/console.md#first-load).
 */
export function useMediaQuery(query: string): boolean {
  return useSyncExternalStore(
    (onChange) => {
      const list = listOf(query);
      list.addEventListener('change', onChange);
      return () => list.removeEventListener('change', onChange);
    },
    () => listOf(query).matches,
  );
}

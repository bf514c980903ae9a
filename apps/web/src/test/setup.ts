import { cleanup, configure } from '@testing-library/react';
import { afterEach, beforeEach, vi } from 'vitest';
import { consoleTexts, initI18n } from '@/lib/i18n';

// Toasts of components tested without the antd provider go to a host that the cleanup unmounts (toast-host.tsx).
vi.mock('@/lib/static-notify', async () => {
  const { testToastHost } = await import('./toast-host');
  return { staticMessage: testToastHost };
});

// antd's responsive helpers ask for matchMedia, which jsdom lacks. Width queries are answered for jsdom's
// window (1024 px wide), so the layout renders as on a desktop screen.
if (!window.matchMedia) {
  const holds = (query: string) => {
    const widths = [...query.matchAll(/\((min|max)-width:\s*([\d.]+)px\)/g)];
    return widths.length > 0 && widths.every(([, side, px]) => (side === 'min' ? window.innerWidth >= Number(px) : window.innerWidth <= Number(px)));
  };
  window.matchMedia = (query: string) =>
    ({
      matches: holds(query),
      media: query,
      onchange: null,
      addListener: () => {},
      removeListener: () => {},
      addEventListener: () => {},
      removeEventListener: () => {},
      dispatchEvent: () => false,
    }) as MediaQueryList;
}

// antd's tables, tabs and text ellipsis measure themselves with ResizeObserver, which jsdom lacks too.
if (typeof window.ResizeObserver === 'undefined') {
  window.ResizeObserver = class {
    observe(): void {}
    unobserve(): void {}
    disconnect(): void {}
  };
}

// A worker keeps its modules from one file to the next (isolate: false, vitest.config.ts). A page a test left
// loading on demand (React.lazy) went on loading after its file's environment was gone and stayed broken for
// the next file ("Cannot load … after the environment was torn down"): so every module of the console is in
// before the first test. Once per worker in effect: a module already loaded resolves at once. Not the static
// toast, which the mock above replaces only where the console itself asks for it.
const consoleModules = import.meta.glob(['../**/*.{ts,tsx}', '!../**/*.test.{ts,tsx}', '!../test/**', '!../main.tsx', '!../lib/static-notify.tsx']);
await Promise.all(Object.values(consoleModules).map((load) => load()));

await initI18n('en');
// Components are tested without the antd provider that fetches the console's texts: all of them, at once.
await consoleTexts('en');

// findBy… and waitFor give up after 1 s by default: shorter than a page's first render with antd's tables on a
// loaded 2-core machine. A budget, not a wait: they return the moment the element is there.
configure({ asyncUtilTimeout: 10_000 });

beforeEach(() => {
  window.sessionStorage.clear();
  window.localStorage.clear();
});

afterEach(() => {
  cleanup();
});

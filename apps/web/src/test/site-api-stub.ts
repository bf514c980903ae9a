import type { ProxyEndpoint, SiteLinks } from '@resi/contract';
import { vi } from 'vitest';

export const NO_LINKS: SiteLinks = { knowledgeBase: null, faq: null, blog: null, toolbox: null };
export const TEST_ENDPOINT: ProxyEndpoint = { host: 'gw.acme.example', httpPort: 9001, socksPort: 9002, checkUrl: 'https://ip.acme.example/json' };

/** `fetch` answering the site facts (with the operator's `links`) and the gateway endpoint, as the Learn and Toolbox pages read them. */
export function stubSiteApi(links: SiteLinks = NO_LINKS): void {
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string) => {
      if (url === '/api/site') return Response.json({ data: { appName: 'Acme Proxy', supportUrl: '', tutorialUrl: '', links, payMethods: [] } });
      if (url === '/api/proxy/endpoint') return Response.json({ data: TEST_ENDPOINT });
      return Response.json({ code: 'NOT_FOUND', message: 'not found' }, { status: 404 });
    }),
  );
}

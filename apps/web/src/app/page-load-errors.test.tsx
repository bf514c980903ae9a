import type { UserDto } from '@resi/contract';
import { QueryClientProvider } from '@tanstack/react-query';
import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { App } from 'antd';
import { Suspense } from 'react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createQueryClient } from '@/lib/query-client';
import { storage } from '@/lib/storage';
import { SERVER_FAULT, stubConsoleApi } from '@/test/console-api-stub';
import { appRoutes, type AppRoute } from './routes';

/*
 * Every page of the route table with the API down (docs/console.md#loading-empty-and-error): each request
 * answers 500, and the page must show the shared error with a Retry button, never an empty list, a zero or
 * a skeleton that stays; Retry once the server answers again shows the data.
 */

/** Per page: test ids that would present made-up data if they showed on failure, and what a recovered page shows. */
interface DataPage {
  path: string;
  never: string[];
  shows: [testId: string, text: string][];
}

const DATA_PAGES: Record<string, DataPage> = {
  center: { path: '/center', never: ['balance-value', 'home-usage-total', 'home-order', 'home-expiring', 'home-expiring-renew'], shows: [['balance-value', '7 GB'], ['home-usage-total', '2 GB'], ['home-order', 'Basic 10 GB'], ['home-expiring', '203.0.113.7'], ['admin-summary', '$123.45']] },
  buy: { path: '/center/buy', never: ['balance-value', 'packages'], shows: [['balance-value', '7 GB'], ['packages', 'Basic 10 GB']] },
  proxy: { path: '/center/proxy', never: ['no-accounts', 'endpoint-host', 'proxy-lines-card'], shows: [['endpoint-host', 'gw.acme.example'], ['proxy-lines', 'gw.acme.example:9001']] },
  rotatingResidential: { path: '/center/rotatingResidential', never: ['balance-value', 'account-name', 'usage-total'], shows: [['balance-value', '7 GB'], ['account-name', 'scraper_one'], ['usage-total', '2 GB'], ['traffic-orders', 'D20260101000000000001']] },
  staticResidential: { path: '/center/staticResidential', never: ['static-ip'], shows: [['static-proxies', '203.0.113.7'], ['static-proxies', 'E-commerce'], ['static-orders', 'S20260101000000000005']] },
  usageRecord: { path: '/center/usageRecord', never: ['usage-record-totals'], shows: [['usage-record-total-total', '4 KB'], ['usage-record', 'scraper_one']] },
  rechargeDetails: { path: '/center/rechargeDetails', never: [], shows: [['recharge-details', 'D20260101000000000001']] },
  knowledgeBase: { path: '/learn/knowledge?article=getting-started', never: [], shows: [['article-view', 'gw.acme.example']] },
  toolbox: { path: '/toolbox', never: ['line-converter'], shows: [['line-converter', '']] },
  manageOrder: { path: '/manage/order', never: [], shows: [['order-desk', 'buyer@example.com']] },
  manageUser: { path: '/manage/user', never: [], shows: [['user-list', 'buyer@example.com']] },
  manageLogs: { path: '/manage/log', never: ['login-chart'], shows: [['login-table', '198.51.100.7'], ['login-analysis', 'buyer@example.com']] },
  managePay: { path: '/manage/pay', never: ['pay-config-sandbox'], shows: [['pay-config-sandbox', '']] },
  manageGoods: { path: '/manage/goods', never: [], shows: [['catalogue-goods', 'Basic 10 GB']] },
  manageRegion: { path: '/manage/region', never: [], shows: [['catalogue-region', 'United States']] },
  manageBusiness: { path: '/manage/business', never: [], shows: [['catalogue-business', 'E-commerce']] },
  manageStaticInventory: { path: '/manage/staticInventory', never: ['static-board', 'static-inventory'], shows: [['static-board', 'Germany'], ['static-inventory', '203.0.113.5']] },
  manageStatistics: {
    path: '/manage/statistics',
    never: ['statistics-periods', 'statistics-summary-today', 'statistics-margin'],
    shows: [['statistics-total-revenue', '$148.45'], ['statistics-top-spend', 'buyer@example.com'], ['statistics-summary-today-revenue', '$123.45'], ['statistics-margin', 'Supplier One'], ['statistics-margin-total-margin', '$1.00']],
  },
  distributionUser: { path: '/distribution/user', never: [], shows: [['referral-row-referred@example.com', '$50.00'], ['referral-row-referred@example.com', 'admin@example.com']] },
  distributionChannel: { path: '/distribution/channel', never: ['channel-totals', 'channel-chart'], shows: [['channel-total-visits', '15'], ['channel-total-revenue', '$25.00'], ['channel-row-qd-spring-2026-01-01', 'qd=spring']] },
  distributionManage: {
    path: '/distribution/manage',
    never: ['distribution-figures', 'distribution-available', 'payoff-form'],
    shows: [['distribution-available', '$12.50'], ['distribution-invite-link', 'invite=INV1'], ['distribution-ledger', 'D20260101000000000001'], ['my-payoffs', 'TX-42']],
  },
  manageSupply: { path: '/manage/supply', never: ['providers-table', 'supply-settings'], shows: [['providers-table', 'Supplier One'], ['providers-table', '$1.50'], ['supply-settings', '']] },
  personal: {
    path: '/user/personal',
    never: ['api-keys-table', 'api-keys-count', 'webhooks-table', 'webhooks-count'],
    shows: [['api-keys-table', 'rk_live_ab12'], ['api-keys-count', '1 of 20'], ['alert-settings', '1 GB'], ['webhooks-table', 'https://hooks.example.com/resi'], ['webhooks-count', '1 of 10']],
  },
};

/** Pages that load nothing of their own: at most the site facts and a captcha, whose failures are silent by design. */
const QUIET_PAGES: Record<string, string> = {
  faq: '/learn/faq',
  blog: '/learn/blog',
  login: '/user/login',
  register: '/user/register',
  error: '/error',
};
const SILENT_PATHS = ['/api/site', '/api/captcha'];

const admin: UserDto = { id: 1, email: 'admin@example.com', account: null, role: 'admin', isDistributor: true, status: 'active', inviteCode: 'INV1', lang: 'en', createdAt: '2026-01-01T00:00:00Z', lastLoginAt: null };

function routeNamed(name: string): AppRoute {
  const route = appRoutes.find((r) => r.name === name);
  if (!route) throw new Error(`no route ${name}`);
  return route;
}

function renderPage(route: AppRoute, path: string) {
  const Page = route.page;
  const router = createMemoryRouter([{ path: route.path, element: <Suspense fallback={<div data-testid="chunk-loading" />}><Page /></Suspense> }], { initialEntries: [path] });
  return render(
    <QueryClientProvider client={createQueryClient()}>
      <App>
        <RouterProvider router={router} />
      </App>
    </QueryClientProvider>,
  );
}

beforeEach(() => {
  storage.setUserInfo(admin);
  // jsdom has no scrollIntoView (the article view scrolls to its top).
  Element.prototype.scrollIntoView = vi.fn();
});
afterEach(() => {
  vi.unstubAllGlobals();
  delete (Element.prototype as Partial<Element>).scrollIntoView;
});

// A whole page's chunk and first render take seconds on a loaded 2-core machine: a budget, not a wait.
const PAGE_BUDGET_MS = 30_000;
const waitLong = { timeout: 20_000 };

describe('Pages with the API down', () => {
  it('names every page of the route table as loading data or not', () => {
    expect([...Object.keys(DATA_PAGES), ...Object.keys(QUIET_PAGES)].sort()).toEqual(appRoutes.map((r) => r.name).sort());
  });

  it.each(Object.keys(DATA_PAGES))(
    '%s: every failed request shows the error and Retry, never empty data; Retry after recovery shows the data',
    async (name) => {
      const spec = DATA_PAGES[name]!;
      const api = stubConsoleApi();
      const { container } = renderPage(routeNamed(name), spec.path);

      await waitFor(() => {
        expect(screen.queryAllByTestId('query-retry').length).toBeGreaterThan(0);
        expect(screen.queryByTestId('chunk-loading')).toBeNull();
        expect(container.querySelector('.ant-skeleton')).toBeNull();
      }, waitLong);
      const errors = [...container.querySelectorAll('.query-error')];
      expect(errors.length).toBe(screen.getAllByTestId('query-retry').length);
      for (const error of errors) expect(error.textContent).toContain(SERVER_FAULT);
      // No empty state stands in for data that failed to load.
      expect(container.querySelector('.ant-empty')).toBeNull();
      for (const id of spec.never) expect(screen.queryByTestId(id), id).toBeNull();

      api.recover();
      for (const retry of screen.getAllByTestId('query-retry')) fireEvent.click(retry);
      await waitFor(() => expect(screen.queryAllByTestId('query-retry')).toHaveLength(0), waitLong);
      for (const [id, text] of spec.shows) expect((await screen.findByTestId(id, {}, waitLong)).textContent, id).toContain(text);
      expect(api.unknown).toEqual([]);
    },
    PAGE_BUDGET_MS,
  );

  it.each(Object.keys(QUIET_PAGES))(
    '%s loads no data whose failure it would have to show',
    async (name) => {
      const api = stubConsoleApi();
      const { container } = renderPage(routeNamed(name), QUIET_PAGES[name]!);
      await waitFor(() => {
        expect(screen.queryByTestId('chunk-loading')).toBeNull();
        expect(container.textContent).not.toBe('');
      }, waitLong);
      expect(api.asked.filter((path) => !SILENT_PATHS.includes(path))).toEqual([]);
      expect(screen.queryAllByTestId('query-retry')).toHaveLength(0);
    },
    PAGE_BUDGET_MS,
  );
});

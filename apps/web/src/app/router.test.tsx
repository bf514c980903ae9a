import type { UserDto } from '@resi/contract';
import { act, render, screen, waitFor } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { resetApiClientState } from '@/lib/api-client';
import { ROUTER_BASENAME } from '@/lib/constants';
import { createQueryClient } from '@/lib/query-client';
import { SESSION_KEYS } from '@/lib/storage';
import { AppProvider } from './provider';
import { appRouteTree, preloadFirstPage } from './router';
import { appRoutes } from './routes';

const customer: UserDto = {
  id: 7,
  email: 'buyer@example.com',
  account: null,
  role: 'customer',
  isDistributor: false,
  status: 'active',
  inviteCode: 'INV7',
  lang: 'en',
  createdAt: '2026-01-01T00:00:00Z',
  lastLoginAt: null,
};

function stubApi(user: UserDto | null) {
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string) => {
      if (url === '/api/site') return Response.json({ data: { appName: 'Acme Proxy', supportUrl: 'https://t.me/x', tutorialUrl: '/manage/legal/tutorial.en.html', links: { knowledgeBase: null, faq: null, blog: null, toolbox: null }, payMethods: [] } });
      if (url === '/api/user') return user ? Response.json({ data: user }) : Response.json({ code: 'UNAUTHENTICATED', message: 'no' }, { status: 401 });
      if (url === '/api/captcha') return Response.json({ data: { id: 'c1', svg: '<svg xmlns="http://www.w3.org/2000/svg"/>' } });
      return Response.json({ code: 'NOT_FOUND', message: 'not found' }, { status: 404 });
    }),
  );
}

function renderAt(path: string) {
  const queryClient = createQueryClient();
  const router = createMemoryRouter(appRouteTree({ queryClient, onSessionLost: () => {} }), {
    basename: ROUTER_BASENAME,
    initialEntries: [`${ROUTER_BASENAME}${path}`],
  });
  render(
    <AppProvider queryClient={queryClient}>
      <RouterProvider router={router} />
    </AppProvider>,
  );
  return router;
}

beforeEach(() => resetApiClientState());
afterEach(() => {
  vi.unstubAllGlobals();
  resetApiClientState();
});

// Each test renders the whole console and opens lazy pages; its finds wait up to 10 s each on a busy machine.
describe('app shell', { timeout: 30_000 }, () => {
  it('sends a visitor without a session to the login page with t', async () => {
    stubApi(null);
    const router = renderAt('/center/buy');
    await waitFor(() => expect(router.state.location.pathname).toBe('/manage/user/login'), { timeout: 10_000 });
    // With the page asked for, to come back to after login.
    expect(router.state.location.search).toMatch(/^\?t=\d+&redirect=%2Fcenter%2Fbuy$/);
    expect(await screen.findByTestId('login-form', {}, { timeout: 10_000 })).toBeTruthy();
  });

  it('shows a customer the 403 state on an admin page and no admin menu', async () => {
    sessionStorage.setItem(SESSION_KEYS.token, 'tok');
    stubApi(customer);
    renderAt('/manage/user');
    expect(await screen.findByTestId('forbidden', {}, { timeout: 10_000 })).toBeTruthy();
    const menu = screen.getByTestId('side-menu');
    expect(menu.textContent).toContain('Account Home');
    expect(menu.textContent).not.toContain('User Management');
    expect(menu.textContent).not.toContain('Distribution');
    await waitFor(() => expect(document.title).toBe('Acme Proxy - User Management'));
  });

  it('keeps the error page mounted (hidden) after leaving it; other pages unmount', async () => {
    sessionStorage.setItem(SESSION_KEYS.token, 'tok');
    stubApi(customer);
    const router = renderAt('/error');
    expect(await screen.findByTestId('error-page', {}, { timeout: 10_000 })).toBeTruthy();
    await act(() => router.navigate('/center/buy'));
    expect(await screen.findByTestId('traffic-balance', {}, { timeout: 10_000 })).toBeTruthy();
    const kept = screen.queryByTestId('error-page');
    expect(kept).not.toBeNull();
    expect(kept?.style.display).toBe('none');
    await act(() => router.navigate('/center/rechargeDetails'));
    expect(await screen.findByTestId('recharge-details', {}, { timeout: 10_000 })).toBeTruthy();
    expect(screen.queryByTestId('traffic-balance')).toBeNull();
    expect(screen.queryByTestId('error-page')?.style.display).toBe('none');
  });

  it('highlights the one menu item of the route, also where two routes share index 102-1', async () => {
    sessionStorage.setItem(SESSION_KEYS.token, 'tok');
    stubApi({ ...customer, role: 'admin', isDistributor: true });
    const router = renderAt('/manage/log');
    const menu = await screen.findByTestId('side-menu', {}, { timeout: 10_000 });
    const selected = () => [...menu.querySelectorAll('.ant-menu-item-selected')].map((item) => item.textContent);
    await waitFor(() => expect(selected()).toEqual(['Login Analysis']));
    await act(() => router.navigate('/distribution/channel'));
    await waitFor(() => expect(selected()).toEqual(['Channel Statistics']));
    await act(() => router.navigate('/center/rotatingResidential'));
    await waitFor(() => expect(selected()).toEqual(['Rotating Residential']));
  });
});

describe('preloadFirstPage', () => {
  afterEach(() => {
    vi.restoreAllMocks();
    sessionStorage.clear();
  });

  const spyLoads = () => Object.fromEntries(appRoutes.map((r) => [r.path, vi.spyOn(r, 'load').mockResolvedValue(undefined)]));

  it('fetches the chunk of the signed-in page being opened, and no other', () => {
    sessionStorage.setItem(SESSION_KEYS.token, 'tok');
    const loads = spyLoads();
    preloadFirstPage({ pathname: `${ROUTER_BASENAME}/center/buy`, search: '' }, 'en');
    expect(Object.entries(loads).filter(([, spy]) => spy.mock.calls.length > 0).map(([path]) => path)).toEqual(['/center/buy']);
  });

  it('fetches it for a link that brings a session in ?token=', () => {
    const loads = spyLoads();
    preloadFirstPage({ pathname: `${ROUTER_BASENAME}/manage/user`, search: '?token=abc' }, 'en');
    expect(loads['/manage/user']).toHaveBeenCalledOnce();
  });

  it('fetches a public page for anyone, and nothing of a signed-in page for a tab without a session', () => {
    const loads = spyLoads();
    preloadFirstPage({ pathname: `${ROUTER_BASENAME}/center`, search: '' }, 'en');
    preloadFirstPage({ pathname: '/elsewhere', search: '' }, 'en');
    expect(Object.values(loads).some((spy) => spy.mock.calls.length > 0)).toBe(false);
    preloadFirstPage({ pathname: `${ROUTER_BASENAME}/user/login`, search: '' }, 'en');
    expect(Object.entries(loads).filter(([, spy]) => spy.mock.calls.length > 0).map(([path]) => path)).toEqual(['/user/login']);
  });
});

import type { UserDto } from '@resi/contract';
import { act, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { resetApiClientState } from '@/lib/api-client';
import { ROUTER_BASENAME } from '@/lib/constants';
import { createQueryClient } from '@/lib/query-client';
import { pendingSessionSwitch } from '@/lib/session-switch';
import { SESSION_KEYS } from '@/lib/storage';
import { AppProvider } from './provider';
import { appRouteTree } from './router';

const base = { account: null, isDistributor: false, status: 'active', inviteCode: 'INV', lang: 'en', createdAt: '2026-01-01T00:00:00Z', lastLoginAt: null } as const;
const admin: UserDto = { ...base, id: 1, email: 'boss@example.com', role: 'admin' };
const customer: UserDto = { ...base, id: 7, email: 'buyer@example.com', role: 'customer' };
/** Which user each bearer token belongs to, as the server would answer GET /api/user. */
const sessions: Record<string, UserDto> = { 'admin-token': admin, 'customer-token': customer };

function stubApi() {
  const fetchMock = vi.fn(async (url: string, init?: RequestInit) => {
    if (url === '/api/site') return Response.json({ data: { appName: 'Acme Proxy', supportUrl: '', tutorialUrl: '', links: { knowledgeBase: null, faq: null, blog: null, toolbox: null }, payMethods: [] } });
    if (url === '/api/user') {
      const token = new Headers(init?.headers).get('Authorization')?.replace(/^Bearer /, '') ?? '';
      const user = sessions[token];
      return user ? Response.json({ data: user }) : Response.json({ code: 'UNAUTHENTICATED', message: 'no' }, { status: 401 });
    }
    return Response.json({ code: 'NOT_FOUND', message: 'not found' }, { status: 404 });
  });
  vi.stubGlobal('fetch', fetchMock);
  return fetchMock;
}

function signedInAs(token: string, user: UserDto) {
  sessionStorage.setItem(SESSION_KEYS.token, token);
  sessionStorage.setItem(SESSION_KEYS.userInfo, JSON.stringify(user));
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

const menuText = async () => (await screen.findByTestId('side-menu', {}, { timeout: 10_000 })).textContent;
const dialog = () => screen.queryByRole('dialog');

beforeEach(() => resetApiClientState());
afterEach(() => {
  pendingSessionSwitch.dismiss();
  vi.unstubAllGlobals();
  resetApiClientState();
});

// Its waits allow 10 s for the whole console shell to render on a loaded 2-core machine: the test's own
// budget must be longer than that, not the 5 s default (it ran out once with two browser suites beside it).
describe('a link with ?token= (navigation rule 1, issue 9)', { timeout: 30_000 }, () => {
  it("asks a tab without a session too, naming the link's account; no leaves it signed out, token gone", async () => {
    stubApi();
    const router = renderAt('/user/personal?token=customer-token&lang=en');
    const asked = await screen.findByRole('dialog', {}, { timeout: 10_000 });
    expect(asked.textContent).toContain('Sign in from this link?');
    await waitFor(() => expect(asked.textContent).toContain('The link signs in as buyer@example.com'));
    // Nothing is kept before the answer, and the token has left the address: the tab waits on the login page.
    expect(sessionStorage.getItem(SESSION_KEYS.token)).toBeNull();
    expect(router.state.location.pathname).toBe('/manage/user/login');
    expect(router.state.location.search).not.toContain('token');

    fireEvent.click(screen.getByTestId('session-switch-keep'));
    await waitFor(() => expect(pendingSessionSwitch.get()).toBeNull());
    expect(sessionStorage.getItem(SESSION_KEYS.token)).toBeNull();
    expect(sessionStorage.getItem(SESSION_KEYS.userInfo)).toBeNull();
    expect(router.state.location.pathname).toBe('/manage/user/login');
  });

  it('signs a tab without a session in when the user confirms, and opens the page the link named', async () => {
    stubApi();
    const router = renderAt('/user/personal?token=customer-token&lang=en');
    const asked = await screen.findByRole('dialog', {}, { timeout: 10_000 });
    await waitFor(() => expect(asked.textContent).toContain('buyer@example.com'));
    await act(async () => fireEvent.click(screen.getByTestId('session-switch-confirm')));
    await waitFor(() => expect(router.state.location.pathname).toBe('/manage/user/personal'), { timeout: 10_000 });
    expect(router.state.location.search).toBe('?lang=en');
    expect(sessionStorage.getItem(SESSION_KEYS.token)).toBe('customer-token');
    expect(await menuText()).toContain('Account Home');
  });

  it("says when the link's session is no longer valid, offers no way to take it, and keeps the tab's own", async () => {
    stubApi();
    signedInAs('admin-token', admin);
    renderAt('/center?token=dead-token');
    const asked = await screen.findByRole('dialog', {}, { timeout: 10_000 });
    await waitFor(() => expect(asked.textContent).toContain('This link no longer signs in'));
    expect((screen.getByTestId('session-switch-confirm') as HTMLButtonElement).disabled).toBe(true);
    // The link's 401 is about the link: this tab's session stays.
    expect(sessionStorage.getItem(SESSION_KEYS.token)).toBe('admin-token');
  });

  it("asks before another account's token replaces the session; keeping it changes nothing", async () => {
    stubApi();
    signedInAs('admin-token', admin);
    const router = renderAt('/user/personal?token=customer-token');
    const asked = await screen.findByRole('dialog', {}, { timeout: 10_000 });
    expect(asked.textContent).toContain('Replace the current session?');
    expect(asked.textContent).toContain("another account's session");
    expect(asked.textContent).toContain('Signed in now as boss@example.com');
    await waitFor(() => expect(asked.textContent).toContain('The link signs in as buyer@example.com'));
    // The token left the address bar before any answer.
    expect(router.state.location.search).toBe('');
    expect(sessionStorage.getItem(SESSION_KEYS.token)).toBe('admin-token');

    fireEvent.click(screen.getByTestId('session-switch-keep'));
    await waitFor(() => expect(pendingSessionSwitch.get()).toBeNull());
    expect(sessionStorage.getItem(SESSION_KEYS.token)).toBe('admin-token');
    expect(JSON.parse(sessionStorage.getItem(SESSION_KEYS.userInfo) ?? '{}')).toMatchObject({ email: 'boss@example.com' });
    expect(await menuText()).toContain('Administration');
    expect(router.state.location.search).toBe('');
  });

  it('switches to the other account when the user confirms, as rule 1 does', async () => {
    stubApi();
    signedInAs('admin-token', admin);
    const router = renderAt('/user/personal?token=customer-token');
    const asked = await screen.findByRole('dialog', {}, { timeout: 10_000 });
    await waitFor(() => expect(asked.textContent).toContain('buyer@example.com'));
    expect(await menuText()).toContain('Administration');

    await act(async () => fireEvent.click(screen.getByTestId('session-switch-confirm')));
    await waitFor(() => expect(JSON.parse(sessionStorage.getItem(SESSION_KEYS.userInfo) ?? '{}')).toMatchObject({ email: 'buyer@example.com' }), { timeout: 10_000 });
    expect(sessionStorage.getItem(SESSION_KEYS.token)).toBe('customer-token');
    await waitFor(async () => expect(await menuText()).not.toContain('Administration'));
    expect(router.state.location.pathname).toBe('/manage/user/personal');
    expect(router.state.location.search).toBe('');
  });

  it('asks nothing when the link carries the session the tab already holds', async () => {
    const fetchMock = stubApi();
    signedInAs('admin-token', admin);
    const router = renderAt('/user/personal?token=admin-token');
    await waitFor(() => expect(router.state.location.search).toBe(''), { timeout: 10_000 });
    expect(await menuText()).toContain('Administration');
    await waitFor(() => expect(fetchMock.mock.calls.some(([url]) => url === '/api/user')).toBe(true));
    expect(dialog()).toBeNull();
    expect(pendingSessionSwitch.get()).toBeNull();
    expect(sessionStorage.getItem(SESSION_KEYS.token)).toBe('admin-token');
  });
});

import { QueryClient } from '@tanstack/react-query';
import type { LoaderFunctionArgs } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { resetApiClientState } from '@/lib/api-client';
import { i18n } from '@/lib/i18n';
import { isUnreachable, serverReachability } from '@/lib/server-reachability';
import { pendingSessionSwitch } from '@/lib/session-switch';
import { SESSION_KEYS } from '@/lib/storage';
import { createNavigationLoader } from './navigation-loader';

const NOW = 1_700_000_000_000;
const user = { id: 1, email: 'a@b.c', account: null, role: 'customer', isDistributor: false, status: 'active', inviteCode: 'ABC', lang: 'en', createdAt: '', lastLoginAt: null };
const fetchMock = vi.fn<typeof fetch>();

function setup() {
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const onSessionLost = vi.fn();
  const loader = createNavigationLoader({ queryClient, onSessionLost, now: () => NOW });
  const run = async (url: string): Promise<Response | null> => {
    try {
      return (await loader({ request: new Request(`http://localhost/manage${url}`), params: {}, context: {} } as LoaderFunctionArgs)) as null;
    } catch (thrown) {
      if (thrown instanceof Response && thrown.status >= 300 && thrown.status < 400) return thrown;
      throw thrown;
    }
  };
  return { queryClient, onSessionLost, run };
}

beforeEach(() => {
  fetchMock.mockReset();
  vi.stubGlobal('fetch', fetchMock);
});
afterEach(async () => {
  vi.unstubAllGlobals();
  resetApiClientState();
  serverReachability.markReachable();
  await i18n.changeLanguage('en');
});

describe('navigation loader (rules applied on every navigation)', () => {
  it('redirects to login with t, replacing the entry, when there is no token', async () => {
    const res = await setup().run('/center');
    expect(res?.headers.get('Location')).toBe(`/user/login?t=${NOW}`);
    expect(res?.headers.get('X-Remix-Replace')).toBe('true');
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('holds a query token for the question, stores nothing, and waits on the login page without it', async () => {
    const res = await setup().run('/center/buy?token=abc&lang=zh');
    expect(sessionStorage.getItem(SESSION_KEYS.token)).toBeNull();
    expect(pendingSessionSwitch.take()).toEqual({ token: 'abc', page: '/center/buy?lang=zh' });
    expect(res?.headers.get('Location')).toBe(`/user/login?t=${NOW}&redirect=${encodeURIComponent('/center/buy?lang=zh')}`);
  });

  it("keeps the stored token and holds another session's one for the question, out of the URL", async () => {
    sessionStorage.setItem(SESSION_KEYS.token, 'old');
    const res = await setup().run('/center?token=new&lang=zh');
    expect(sessionStorage.getItem(SESSION_KEYS.token)).toBe('old');
    expect(pendingSessionSwitch.take()).toEqual({ token: 'new', page: '/center?lang=zh' });
    expect(res?.headers.get('Location')).toBe('/center?lang=zh');
  });

  it('switches and stores the language, and remembers the channel', async () => {
    const res = await setup().run('/user/register?lang=zh-cn&yl=spring');
    expect(res).toBeNull();
    expect(sessionStorage.getItem(SESSION_KEYS.lang)).toBe('zh-cn');
    expect(i18n.language).toBe('zh-cn');
    expect(sessionStorage.getItem(SESSION_KEYS.channelKey)).toBe('yl');
    expect(sessionStorage.getItem(SESSION_KEYS.channelValue)).toBe('spring');
  });

  it('counts a channel landing once per browser session, with the invite code it came with', async () => {
    fetchMock.mockResolvedValue(new Response(JSON.stringify({ data: {} }), { status: 200 }));
    const { run } = setup();
    await run('/user/register?invite=INV1&qd=spring');
    await run('/user/register?invite=INV1&qd=spring');
    await run('/user/login?qd=spring');
    const visits = () => fetchMock.mock.calls.filter(([url]) => url === '/api/channel/visit');
    await vi.waitFor(() => expect(visits()).toHaveLength(1));
    expect(JSON.parse(String(visits()[0]?.[1]?.body))).toEqual({ channelKey: 'qd', channelValue: 'spring', inviteCode: 'INV1' });
    expect(visits()[0]?.[1]?.method).toBe('POST');

    await run('/user/login?hz=autumn');
    await vi.waitFor(() => expect(visits()).toHaveLength(2));
    expect(JSON.parse(String(visits()[1]?.[1]?.body))).toEqual({ channelKey: 'hz', channelValue: 'autumn' });
  });

  it('goes on to the page when counting the landing fails', async () => {
    fetchMock.mockResolvedValue(new Response(JSON.stringify({ code: 'RATE_LIMITED', message: 'slow down' }), { status: 429 }));
    expect(await setup().run('/user/register?yl=x')).toBeNull();
    expect(sessionStorage.getItem(SESSION_KEYS.channelValue)).toBe('x');
  });

  it('loads the user before showing a page when none is known yet, and stores it', async () => {
    sessionStorage.setItem(SESSION_KEYS.token, 'tok');
    fetchMock.mockResolvedValue(new Response(JSON.stringify({ data: user }), { status: 200 }));
    const { run, queryClient } = setup();
    expect(await run('/center')).toBeNull();
    expect(fetchMock.mock.calls[0]?.[0]).toBe('/api/user');
    expect(JSON.parse(sessionStorage.getItem(SESSION_KEYS.userInfo) ?? '{}')).toMatchObject({ email: 'a@b.c' });
    expect(queryClient.getQueryData(['current-user'])).toMatchObject({ email: 'a@b.c' });
  });

  it('drops the session and goes to login when the user has no email', async () => {
    sessionStorage.setItem(SESSION_KEYS.token, 'tok');
    fetchMock.mockResolvedValue(new Response(JSON.stringify({ data: { ...user, email: '' } }), { status: 200 }));
    const res = await setup().run('/center');
    expect(res?.headers.get('Location')).toBe(`/user/login?t=${NOW}`);
    expect(sessionStorage.getItem(SESSION_KEYS.token)).toBeNull();
    expect(sessionStorage.getItem(SESSION_KEYS.userInfo)).toBeNull();
  });

  it('reloads a known user in the background on each navigation; a 401 logs out', async () => {
    sessionStorage.setItem(SESSION_KEYS.token, 'tok');
    sessionStorage.setItem(SESSION_KEYS.userInfo, JSON.stringify(user));
    fetchMock.mockResolvedValue(new Response(JSON.stringify({ code: 'UNAUTHENTICATED', message: 'signed out' }), { status: 401 }));
    const { run, onSessionLost } = setup();
    expect(await run('/center/buy')).toBeNull();
    await vi.waitFor(() => expect(onSessionLost).toHaveBeenCalledTimes(1));
    expect(sessionStorage.getItem(SESSION_KEYS.token)).toBeNull();
    expect(sessionStorage.getItem(SESSION_KEYS.userInfo)).toBeNull();
  });

  it.each([
    ['no answer', () => Promise.reject(new TypeError('Failed to fetch'))],
    ['a 5xx', () => Promise.resolve(new Response(JSON.stringify({ code: 'INTERNAL', message: 'down' }), { status: 502 }))],
  ])('keeps the session on %s and says the server cannot be reached, until a check answers again', async (_what, outage) => {
    sessionStorage.setItem(SESSION_KEYS.token, 'tok');
    sessionStorage.setItem(SESSION_KEYS.userInfo, JSON.stringify(user));
    fetchMock.mockImplementation(outage);
    const { run, onSessionLost } = setup();
    expect(await run('/center/buy')).toBeNull();
    await vi.waitFor(() => expect(serverReachability.isUnreachable()).toBe(true));
    expect(onSessionLost).not.toHaveBeenCalled();
    expect(sessionStorage.getItem(SESSION_KEYS.token)).toBe('tok');
    expect(sessionStorage.getItem(SESSION_KEYS.userInfo)).not.toBeNull();

    fetchMock.mockImplementation(async () => new Response(JSON.stringify({ data: user }), { status: 200 }));
    await run('/center/proxy');
    await vi.waitFor(() => expect(serverReachability.isUnreachable()).toBe(false));
  });

  it('a first check with no answer keeps the token and fails the page as unreachable, not as signed out', async () => {
    sessionStorage.setItem(SESSION_KEYS.token, 'tok');
    fetchMock.mockRejectedValue(new TypeError('Failed to fetch'));
    const failure = await setup().run('/center').catch((error: unknown) => error);
    expect(isUnreachable(failure)).toBe(true);
    expect(sessionStorage.getItem(SESSION_KEYS.token)).toBe('tok');
  });

  it('keeps the session when the reload was cancelled by leaving the page', async () => {
    sessionStorage.setItem(SESSION_KEYS.token, 'tok');
    sessionStorage.setItem(SESSION_KEYS.userInfo, JSON.stringify(user));
    let fail: (e: Error) => void = () => {};
    fetchMock.mockImplementation(() => new Promise<Response>((_r, reject) => (fail = reject)));
    const { run, onSessionLost } = setup();
    await run('/center');
    window.dispatchEvent(new Event('beforeunload'));
    fail(new TypeError('Failed to fetch'));
    await new Promise((r) => setTimeout(r, 10));
    window.dispatchEvent(new Event('pageshow'));
    expect(onSessionLost).not.toHaveBeenCalled();
    expect(sessionStorage.getItem(SESSION_KEYS.token)).toBe('tok');
  });

  it('reloads the user again on the next navigation', async () => {
    sessionStorage.setItem(SESSION_KEYS.token, 'tok');
    sessionStorage.setItem(SESSION_KEYS.userInfo, JSON.stringify(user));
    fetchMock.mockImplementation(async () => new Response(JSON.stringify({ data: user }), { status: 200 }));
    const { run } = setup();
    await run('/center');
    await run('/user/personal');
    await vi.waitFor(() => expect(fetchMock).toHaveBeenCalledTimes(2));
  });

  it('does not reload the user on public pages', async () => {
    sessionStorage.setItem(SESSION_KEYS.token, 'tok');
    await setup().run('/user/login');
    expect(fetchMock).not.toHaveBeenCalled();
  });
});

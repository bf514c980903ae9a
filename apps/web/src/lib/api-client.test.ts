import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { api, ApiError, browser, exportUrl, loginUrl, openExport, request, requestBlob, resetApiClientState } from './api-client';
import { REQUEST_TIMEOUT_MS, UNAUTHORIZED_REDIRECT_DELAY_MS } from './constants';
import { SESSION_KEYS } from './storage';

function jsonResponse(status: number, body: unknown): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
}

const fetchMock = vi.fn<typeof fetch>();

beforeEach(() => {
  fetchMock.mockReset();
  vi.stubGlobal('fetch', fetchMock);
  resetApiClientState();
});

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
  resetApiClientState();
});

function lastHeaders(): Headers {
  const init = fetchMock.mock.calls.at(-1)?.[1];
  return new Headers(init?.headers);
}

describe('api client: request headers', () => {
  it('sends the session token as a bearer token and the stored language as Api-Lang', async () => {
    sessionStorage.setItem(SESSION_KEYS.token, 'tok-123');
    sessionStorage.setItem(SESSION_KEYS.lang, 'zh-cn');
    fetchMock.mockResolvedValue(jsonResponse(200, { data: 1 }));
    await api.get('/user');
    expect(fetchMock.mock.calls[0]?.[0]).toBe('/api/user');
    expect(lastHeaders().get('Authorization')).toBe('Bearer tok-123');
    expect(lastHeaders().get('Api-Lang')).toBe('zh-cn');
  });

  it('defaults Api-Lang to en and sends no Authorization without a token', async () => {
    fetchMock.mockResolvedValue(jsonResponse(200, { data: 1 }));
    await api.get('/site');
    expect(lastHeaders().get('Api-Lang')).toBe('en');
    expect(lastHeaders().has('Authorization')).toBe(false);
  });

  it('sends JSON bodies and drops empty query values', async () => {
    fetchMock.mockImplementation(async () => jsonResponse(200, { data: null }));
    await api.post('/login', { account: 'a' });
    const init = fetchMock.mock.calls[0]?.[1];
    expect(init?.method).toBe('POST');
    expect(init?.body).toBe('{"account":"a"}');
    expect(lastHeaders().get('Content-Type')).toBe('application/json');
    await api.get('/manage/user', { email: 'x@y.z', page: 2, role: '', status: undefined });
    expect(fetchMock.mock.calls[1]?.[0]).toBe('/api/manage/user?email=x%40y.z&page=2');
  });
});

describe('api client: responses', () => {
  it('resolves 2xx to the parsed body (the envelope)', async () => {
    const body = { data: { id: 1, email: 'a@b.c' }, token: 't', message: 'ok' };
    fetchMock.mockResolvedValue(jsonResponse(200, body));
    await expect(request('/login', { method: 'POST', body: {} })).resolves.toEqual(body);
    fetchMock.mockResolvedValue(jsonResponse(299, { data: 'edge' }));
    await expect(request('/x')).resolves.toEqual({ data: 'edge' });
  });

  it('rejects a non-2xx status with the body message and code', async () => {
    fetchMock.mockResolvedValue(jsonResponse(400, { code: 'LOGIN_FAILED', message: 'Wrong account or password.' }));
    const error = await request('/login').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).message).toBe('Wrong account or password.');
    expect((error as ApiError).code).toBe('LOGIN_FAILED');
    expect((error as ApiError).status).toBe(400);
  });

  it('uses errmsg when there is no message', async () => {
    fetchMock.mockResolvedValue(jsonResponse(500, { errmsg: 'legacy failure' }));
    await expect(request('/x')).rejects.toThrow('legacy failure');
  });

  it('rejects 3xx and 1xx-like statuses too (only 200-299 succeed)', async () => {
    fetchMock.mockResolvedValue(new Response(null, { status: 304 }));
    const error = (await request('/x').catch((e: unknown) => e)) as ApiError;
    expect(error).toBeInstanceOf(ApiError);
    expect(error.status).toBe(304);
    expect(error.message).not.toBe('');
  });

  it('downloads blobs and rejects failed downloads with the body message', async () => {
    fetchMock.mockResolvedValue(new Response('a,b\n1,2\n', { status: 200, headers: { 'content-type': 'text/csv' } }));
    const blob = await requestBlob('/proxy/dynamic/export');
    expect(await blob.text()).toBe('a,b\n1,2\n');
    fetchMock.mockResolvedValue(jsonResponse(403, { code: 'FORBIDDEN', message: 'No.' }));
    await expect(api.blob('/manage/user')).rejects.toThrow('No.');
  });
});

describe('api client: 401', () => {
  it('sends the browser to the login page 400 ms after a 401 and drops the session', async () => {
    vi.useFakeTimers({ now: 1_700_000_000_000 });
    const redirect = vi.spyOn(browser, 'redirect').mockImplementation(() => {});
    sessionStorage.setItem(SESSION_KEYS.token, 'dead');
    sessionStorage.setItem(SESSION_KEYS.userInfo, '{"email":"a@b.c"}');
    fetchMock.mockResolvedValue(jsonResponse(401, { code: 'UNAUTHENTICATED', message: 'Please log in again.' }));

    await expect(request('/user')).rejects.toThrow('Please log in again.');
    expect(sessionStorage.getItem(SESSION_KEYS.token)).toBeNull();
    expect(sessionStorage.getItem(SESSION_KEYS.userInfo)).toBeNull();

    vi.advanceTimersByTime(UNAUTHORIZED_REDIRECT_DELAY_MS - 1);
    expect(redirect).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(redirect).toHaveBeenCalledTimes(1);
    expect(redirect.mock.calls[0]?.[0]).toMatch(/^\/manage\/user\/login\?t=\d+$/);
    expect(UNAUTHORIZED_REDIRECT_DELAY_MS).toBe(400);
  });

  it("asks with a link's token when given one, and its 401 leaves the tab's own session alone", async () => {
    vi.useFakeTimers({ now: 1_700_000_000_000 });
    const redirect = vi.spyOn(browser, 'redirect').mockImplementation(() => {});
    sessionStorage.setItem(SESSION_KEYS.token, 'mine');
    fetchMock.mockResolvedValue(jsonResponse(401, { code: 'UNAUTHENTICATED', message: 'Please log in again.' }));
    await expect(request('/user', { token: 'from-link' })).rejects.toMatchObject({ status: 401 });
    expect(lastHeaders().get('Authorization')).toBe('Bearer from-link');
    vi.advanceTimersByTime(UNAUTHORIZED_REDIRECT_DELAY_MS);
    expect(redirect).not.toHaveBeenCalled();
    expect(sessionStorage.getItem(SESSION_KEYS.token)).toBe('mine');
  });

  it('names the page that was open when the session ended, to come back to after login', async () => {
    vi.useFakeTimers({ now: 1_700_000_000_000 });
    const redirect = vi.spyOn(browser, 'redirect').mockImplementation(() => {});
    vi.spyOn(browser, 'here').mockReturnValue('/usage/record?page=3');
    fetchMock.mockResolvedValue(jsonResponse(401, { code: 'UNAUTHENTICATED', message: 'Please log in again.' }));
    await expect(request('/user')).rejects.toThrow('Please log in again.');
    vi.advanceTimersByTime(UNAUTHORIZED_REDIRECT_DELAY_MS);
    expect(redirect.mock.calls[0]?.[0]).toBe(`/manage/user/login?t=1700000000400&redirect=${encodeURIComponent('/usage/record?page=3')}`);
  });

  it('does not redirect on other errors', async () => {
    vi.useFakeTimers();
    const redirect = vi.spyOn(browser, 'redirect').mockImplementation(() => {});
    fetchMock.mockResolvedValue(jsonResponse(403, { code: 'FORBIDDEN', message: 'nope' }));
    await expect(request('/manage/user')).rejects.toThrow('nope');
    vi.advanceTimersByTime(5_000);
    expect(redirect).not.toHaveBeenCalled();
  });

  it('builds the login URL under the base path with t', () => {
    expect(loginUrl(42)).toBe('/manage/user/login?t=42');
  });
});

describe('api client: timeout', () => {
  it('aborts a request after 30000 ms and rejects with a timeout error', async () => {
    vi.useFakeTimers();
    let signal: AbortSignal | undefined;
    fetchMock.mockImplementation(
      (_url, init) =>
        new Promise<Response>((_resolve, reject) => {
          signal = init?.signal ?? undefined;
          signal?.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError')));
        }),
    );
    const pending = request('/slow').catch((e: unknown) => e);
    await vi.advanceTimersByTimeAsync(REQUEST_TIMEOUT_MS - 1);
    expect(signal?.aborted).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(signal?.aborted).toBe(true);
    const error = (await pending) as ApiError;
    expect(error).toBeInstanceOf(ApiError);
    expect(error.code).toBe('TIMEOUT');
    expect(REQUEST_TIMEOUT_MS).toBe(30_000);
  });

  it('reports requests cancelled by leaving the page as ABORTED, not as a network failure', async () => {
    window.dispatchEvent(new Event('pagehide'));
    fetchMock.mockRejectedValue(new TypeError('Failed to fetch'));
    const error = (await request('/user').catch((e: unknown) => e)) as ApiError;
    window.dispatchEvent(new Event('pageshow'));
    expect(error.code).toBe('ABORTED');
  });

  it('reports a network failure as an ApiError', async () => {
    fetchMock.mockRejectedValue(new TypeError('Failed to fetch'));
    const error = (await request('/x').catch((e: unknown) => e)) as ApiError;
    expect(error).toBeInstanceOf(ApiError);
    expect(error.code).toBe('NETWORK');
  });
});

describe('api client: methods', () => {
  it('sends PUT with a JSON body and can keep a request alive past the page (keepalive)', async () => {
    fetchMock.mockImplementation(async () => jsonResponse(200, { data: null }));
    await api.put('/manage/goods/3', { sort: 1 });
    expect(fetchMock.mock.calls[0]?.[0]).toBe('/api/manage/goods/3');
    expect(fetchMock.mock.calls[0]?.[1]?.method).toBe('PUT');
    expect(fetchMock.mock.calls[0]?.[1]?.body).toBe('{"sort":1}');
    expect(fetchMock.mock.calls[0]?.[1]?.keepalive).toBeUndefined();
    await request('/logs/intention-purchase', { method: 'POST', body: { kind: 'dynamic' }, keepalive: true });
    expect(fetchMock.mock.calls[1]?.[1]?.keepalive).toBe(true);
  });
});

describe('api client: exports (docs/console.md#exports)', () => {
  it('puts the current filters, the language and the ticket as token in the URL, dropping YTO-TGC, paging and empty values', () => {
    const url = exportUrl('/manage/order', { status: 'paid', email: 'a@b.c', 'YTO-TGC': 'x', page: 3, pageSize: 50, kind: undefined, orderNo: '' }, 'tkt-1');
    expect(url).toBe('/api/manage/order?status=paid&email=a%40b.c&lang=en&token=tkt-1');
    sessionStorage.setItem(SESSION_KEYS.lang, 'zh');
    expect(exportUrl('/manage/user', { lang: 'en' }, 't')).toBe('/api/manage/user?lang=zh&token=t');
  });

  it('opens a tab at once, then sends it to the export with a fresh ticket', async () => {
    const tab = { location: { href: 'about:blank' }, close: vi.fn() };
    const openTab = vi.spyOn(browser, 'openTab').mockReturnValue(tab as unknown as Window);
    sessionStorage.setItem(SESSION_KEYS.token, 'session-token');
    fetchMock.mockResolvedValue(jsonResponse(200, { data: { ticket: 'one-use' } }));
    await openExport('/manage/order', { status: 'pending' });
    expect(openTab).toHaveBeenCalledTimes(1);
    expect(openTab.mock.calls[0]?.[0]).toBe('about:blank');
    expect(fetchMock.mock.calls[0]?.[0]).toBe('/api/export-ticket');
    expect(fetchMock.mock.calls[0]?.[1]?.method).toBe('POST');
    expect(tab.location.href).toBe('/api/manage/order?status=pending&lang=en&token=one-use');
    // The session token never goes into a URL.
    expect(tab.location.href).not.toContain('session-token');
  });

  it('closes the tab when no ticket could be had, and rejects with the error', async () => {
    const tab = { location: { href: 'about:blank' }, close: vi.fn() };
    vi.spyOn(browser, 'openTab').mockReturnValue(tab as unknown as Window);
    fetchMock.mockResolvedValue(jsonResponse(403, { code: 'FORBIDDEN', message: 'Admins only.' }));
    await expect(openExport('/manage/order', {})).rejects.toThrow('Admins only.');
    expect(tab.close).toHaveBeenCalledTimes(1);
    expect(tab.location.href).toBe('about:blank');
  });

  it('opens the export in a new tab directly when the blank tab was blocked', async () => {
    const openTab = vi.spyOn(browser, 'openTab').mockReturnValue(null);
    fetchMock.mockResolvedValue(jsonResponse(200, { data: { ticket: 't2' } }));
    await openExport('/manage/user', { email: 'x' });
    expect(openTab.mock.calls.map((c) => c[0])).toEqual(['about:blank', '/api/manage/user?email=x&lang=en&token=t2']);
  });
});

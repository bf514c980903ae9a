import type { Envelope } from '@resi/contract';
import {
  API_PREFIX,
  BASE_PATH,
  DEFAULT_LANG,
  REQUEST_TIMEOUT_MS,
  SUCCESS_STATUS_MAX,
  SUCCESS_STATUS_MIN,
  UNAUTHORIZED_REDIRECT_DELAY_MS,
} from './constants';
import { i18n } from './i18n';
import { loginRedirect, stripBasename } from './navigation';
import { storage } from './storage';

/*
 * The one HTTP client of the console. It carries every request rule of docs/console.md#request-rules:
 * bearer token and Api-Lang from session storage, 30 s timeout, 2xx unwrapped to the body,
 * anything else rejected with the body's `message`/`errmsg`, 401 → login page after 400 ms.
 * Screens never parse errors: they show `error.message`.
 */

export class ApiError extends Error {
  override readonly name = 'ApiError';
  constructor(
    message: string,
    /** HTTP status; 0 when no response arrived (network error, timeout). */
    readonly status: number,
    /** Stable error code from the body (`UNAUTHENTICATED`, …) or `TIMEOUT`/`NETWORK`. */
    readonly code?: string,
    /** A 429's Retry-After, in seconds: when the same request may be tried again. */
    readonly retryAfter?: number,
  ) {
    super(message);
  }
}

export type Query = Record<string, string | number | boolean | null | undefined>;

export interface RequestOptions {
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  body?: unknown;
  query?: Query;
  signal?: AbortSignal;
  /** Lets the request outlive the page (sent while the tab closes); small bodies only. */
  keepalive?: boolean;
  /**
   * A session to ask with instead of the stored one: a link's, before the user has accepted it. Its 401
   * says nothing about this tab's session and starts no redirect.
   */
  token?: string;
}

/** Browser effects, replaceable in tests. */
export const browser = {
  redirect(url: string): void {
    window.location.href = url;
  },
  /** A new browser tab (exports, payment pages); null when the browser blocked it or `noopener` was asked. */
  openTab(url: string, features?: string): Window | null {
    return window.open(url, '_blank', features);
  },
  /** The console page being shown, without the base path (`/center/buy?x=1`). */
  here(): string {
    return `${stripBasename(window.location.pathname, BASE_PATH.replace(/\/$/, ''))}${window.location.search}`;
  },
  now(): number {
    return Date.now();
  },
};

export function buildUrl(path: string, query?: Query): string {
  const url = `${API_PREFIX}${path.startsWith('/') ? path : `/${path}`}`;
  if (!query) return url;
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value === undefined || value === null || value === '') continue;
    params.append(key, String(value));
  }
  const qs = params.toString();
  return qs ? `${url}?${qs}` : url;
}

export function requestHeaders(hasBody: boolean, token = storage.getToken()): Headers {
  const headers = new Headers({ Accept: 'application/json' });
  if (token) headers.set('Authorization', `Bearer ${token}`);
  headers.set('Api-Lang', storage.getLang() ?? DEFAULT_LANG);
  if (hasBody) headers.set('Content-Type', 'application/json');
  return headers;
}

/** Login page as a full browser URL (under /manage/), with the timestamp parameter `t` and the page to return to. */
export function loginUrl(now = browser.now(), from?: string): string {
  return `${BASE_PATH.replace(/\/$/, '')}${loginRedirect(now, from)}`;
}

/*
 * While the document unloads (full navigation, reload, tab close) the browser cancels requests in flight;
 * those failures say nothing about the session and are reported as ABORTED.
 */
let unloading = false;
if (typeof window !== 'undefined') {
  window.addEventListener('beforeunload', () => (unloading = true));
  window.addEventListener('pagehide', () => (unloading = true));
  window.addEventListener('pageshow', () => (unloading = false));
}
export function isPageUnloading(): boolean {
  return unloading;
}

let redirectTimer: ReturnType<typeof setTimeout> | null = null;

/** 401: the session is gone. Drop it and send the browser to the login page after 400 ms. */
function handleUnauthorized(): void {
  storage.clearSession();
  if (redirectTimer !== null) return;
  redirectTimer = setTimeout(() => {
    redirectTimer = null;
    browser.redirect(loginUrl(browser.now(), browser.here()));
  }, UNAUTHORIZED_REDIRECT_DELAY_MS);
}

/** For tests: forget a pending 401 redirect. */
export function resetApiClientState(): void {
  if (redirectTimer !== null) clearTimeout(redirectTimer);
  redirectTimer = null;
}

function isSuccess(status: number): boolean {
  return status >= SUCCESS_STATUS_MIN && status <= SUCCESS_STATUS_MAX;
}

async function readJson(response: Response): Promise<unknown> {
  const text = await response.text();
  if (!text) return null;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return null;
  }
}

/** The text an error shows: the body's `message` or `errmsg` (docs/console.md#request-rules), else a generic one. */
export function errorFromBody(status: number, body: unknown, retryAfter?: string | null): ApiError {
  const record = body && typeof body === 'object' ? (body as Record<string, unknown>) : {};
  const text = [record.message, record.errmsg].find((v): v is string => typeof v === 'string' && v.trim() !== '');
  const code = typeof record.code === 'string' ? record.code : undefined;
  const wait = retryAfter && /^\d+$/.test(retryAfter.trim()) ? Number(retryAfter) : undefined;
  return new ApiError(text ?? i18n.t('common.error.http', { status }), status, code, wait);
}

async function send(path: string, options: RequestOptions, accept: 'json' | 'blob'): Promise<Response> {
  const controller = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort();
  }, REQUEST_TIMEOUT_MS);
  const onAbort = () => controller.abort();
  options.signal?.addEventListener('abort', onAbort);
  const hasBody = options.body !== undefined;
  const headers = requestHeaders(hasBody, options.token);
  if (accept === 'blob') headers.set('Accept', '*/*');
  try {
    const response = await fetch(buildUrl(path, options.query), {
      method: options.method ?? 'GET',
      headers,
      body: hasBody ? JSON.stringify(options.body) : undefined,
      signal: controller.signal,
      credentials: 'same-origin',
      keepalive: options.keepalive,
    });
    if (!isSuccess(response.status)) {
      if (response.status === 401 && options.token === undefined) handleUnauthorized();
      throw errorFromBody(response.status, await readJson(response), response.headers.get('retry-after'));
    }
    return response;
  } catch (error) {
    if (error instanceof ApiError) throw error;
    if (timedOut) throw new ApiError(i18n.t('common.error.timeout'), 0, 'TIMEOUT');
    if (options.signal?.aborted) throw error;
    if (unloading) throw new ApiError(i18n.t('common.error.network'), 0, 'ABORTED');
    throw new ApiError(i18n.t('common.error.network'), 0, 'NETWORK');
  } finally {
    clearTimeout(timer);
    options.signal?.removeEventListener('abort', onAbort);
  }
}

/** JSON request; resolves to the parsed body (the envelope) for 200–299. */
export async function request<T>(path: string, options: RequestOptions = {}): Promise<Envelope<T>> {
  const response = await send(path, options, 'json');
  return (await readJson(response)) as Envelope<T>;
}

/** File download (exports): resolves to the body as a Blob for 200–299; errors as for JSON. */
export async function requestBlob(path: string, options: RequestOptions = {}): Promise<Blob> {
  const response = await send(path, options, 'blob');
  return response.blob();
}

export const api = {
  get: <T>(path: string, query?: Query, signal?: AbortSignal) => request<T>(path, { method: 'GET', query, signal }),
  post: <T>(path: string, body?: unknown) => request<T>(path, { method: 'POST', body: body ?? {} }),
  put: <T>(path: string, body?: unknown) => request<T>(path, { method: 'PUT', body: body ?? {} }),
  delete: <T>(path: string, body?: unknown) => request<T>(path, { method: 'DELETE', body }),
  blob: (path: string, query?: Query) => requestBlob(path, { method: 'GET', query }),
};

/*
 * Exports (docs/console.md#exports, docs/api.md#csv-exports): the browser opens
 * `GET /api/<list>?<current filters>&token=<ticket>` in a new tab. The ticket is single use and short-lived
 * (POST /api/export-ticket), never the session token.
 */

/** Filter key export URLs never carry (docs/api.md#csv-exports). */
export const EXPORT_DROPPED_KEY = 'YTO-TGC';

/**
 * The export URL: the list's filters without paging or the dropped key, the interface language (a new tab
 * sends no Api-Lang header, and the file's headers follow it) and the ticket as `token`.
 */
export function exportUrl(path: string, filters: Query, ticket: string, lang: string = storage.getLang() ?? DEFAULT_LANG): string {
  const query: Query = {};
  for (const [key, value] of Object.entries(filters)) {
    if (key === EXPORT_DROPPED_KEY || key === 'page' || key === 'pageSize' || key === 'token' || key === 'lang') continue;
    query[key] = value;
  }
  query.lang = lang;
  query.token = ticket;
  return buildUrl(path, query);
}

/**
 * Opens the export of a list in a new tab. The tab is opened at once, while the click still counts as a
 * user gesture (popup blockers), and sent to the export once the ticket has arrived.
 */
export async function openExport(path: string, filters: Query): Promise<void> {
  const tab = browser.openTab('about:blank');
  try {
    const { data } = await api.post<{ ticket: string }>('/export-ticket');
    const url = exportUrl(path, filters, data.ticket);
    if (tab) tab.location.href = url;
    else browser.openTab(url);
  } catch (error) {
    tab?.close();
    throw error;
  }
}

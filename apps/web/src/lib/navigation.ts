import type { Lang } from '@resi/contract';
import { LANGS } from '@resi/contract';
import { CHANNEL_PARAMS, HOME_PATH, LOGIN_PATH, PUBLIC_PATHS } from './constants';
import type { Channel } from './storage';

/*
 * The navigation rules of docs/console.md#navigation-rules, as pure functions: what to do for a URL, given
 * the stored token.
 * The router's root loader (src/app/navigation-loader.ts) applies the decision on every navigation.
 */

export function isPublicPath(pathname: string): boolean {
  const path = pathname.length > 1 ? pathname.replace(/\/+$/, '') : pathname;
  return PUBLIC_PATHS.includes(path);
}

/** The login page's parameter naming the console page to return to after signing in. */
export const RETURN_PARAM = 'redirect';

/**
 * Where a visitor without a session goes: `/user/login?t=<timestamp>` (rule 1), with the page they
 * asked for (a console path and its query) when it is not Account Home, to return there after login.
 */
export function loginRedirect(now: number, from?: string): string {
  const back = from === undefined ? null : returnPath(from);
  const page = back?.split('?')[0];
  return back && page !== HOME_PATH && page !== '/' ? `${LOGIN_PATH}?t=${now}&${RETURN_PARAM}=${encodeURIComponent(back)}` : `${LOGIN_PATH}?t=${now}`;
}

/**
 * A return path is only ever a path of this console: one leading `/` then not `/` or `\` (`//evil`,
 * `/\evil` are other hosts to a browser), no scheme (`https:evil`), no control characters, and not a
 * public page; anything else is null (the caller goes to Account Home). The value arrives decoded once
 * by URLSearchParams; a still-encoded `%2F%2Fevil` stays a path and is checked as one.
 */
export function returnPath(value: string | null | undefined): string | null {
  if (!value || !value.startsWith('/') || value.startsWith('//') || value.includes('\\')) return null;
  // eslint-disable-next-line no-control-regex -- control characters are exactly what is refused
  if (/[\u0000-\u001f\u007f]/.test(value)) return null;
  let url: URL;
  try {
    url = new URL(value, 'http://console.invalid');
  } catch {
    return null;
  }
  // `/.//evil` normalises to `//evil`: checked again after parsing.
  if (url.origin !== 'http://console.invalid' || url.pathname.startsWith('//') || isPublicPath(url.pathname)) return null;
  return `${url.pathname}${url.search}`;
}

/** Rule 2: `?lang=en|zh-cn|zh` (case-insensitive); anything else is ignored. */
export function langFromSearch(search: string): Lang | null {
  const value = new URLSearchParams(search).get('lang')?.trim().toLowerCase();
  return value && (LANGS as readonly string[]).includes(value) ? (value as Lang) : null;
}

/** Rule 4: the first of `hz`, `yl`, `qd` that is present with a value. */
export function channelFromSearch(search: string): Channel | null {
  const params = new URLSearchParams(search);
  for (const key of CHANNEL_PARAMS) {
    const value = params.get(key)?.trim();
    if (value) return { key, value };
  }
  return null;
}

/** The invite link's `?invite=CODE`, sent with a channel landing so it counts for that distributor. */
export function inviteFromSearch(search: string): string | null {
  return new URLSearchParams(search).get('invite')?.trim() || null;
}

export function tokenFromSearch(search: string): string | null {
  return new URLSearchParams(search).get('token')?.trim() || null;
}

/** The search string without one parameter, keeping the others in order (`''` or `?a=b`). */
export function withoutParam(search: string, name: string): string {
  const params = new URLSearchParams(search);
  params.delete(name);
  const qs = params.toString();
  return qs ? `?${qs}` : '';
}

export interface NavigationInput {
  /** Path inside the console (basename removed), e.g. `/center`. */
  pathname: string;
  search: string;
  /** sessionStorage `token`. */
  storedToken: string | null;
  now: number;
}

/** A link's `?token=` waiting for the user's answer, and the page the link named (without the token). */
export interface LinkSession {
  token: string;
  page: string;
}

export interface NavigationDecision {
  /** Language to switch to and store (rule 2). */
  lang: Lang | null;
  /** Channel to remember as channel_key/channel_value (rule 4). */
  channel: Channel | null;
  /** Invite code the address carried, credited with the channel landing. */
  inviteCode: string | null;
  /** A session a link brought (rule 1): stored only after the user says yes to it (issues 9 and 22). */
  offerToken: LinkSession | null;
  /** Replace the navigation with this console path (login, or the same URL without `token`). */
  redirectTo: string | null;
  /** Reload the current user once the navigation completes (rule 5). */
  reloadUser: boolean;
}

export function resolveNavigation(input: NavigationInput): NavigationDecision {
  const decision: NavigationDecision = {
    lang: langFromSearch(input.search),
    channel: channelFromSearch(input.search),
    inviteCode: inviteFromSearch(input.search),
    offerToken: null,
    redirectTo: null,
    reloadUser: false,
  };
  if (isPublicPath(input.pathname)) return decision;

  const queryToken = tokenFromSearch(input.search);
  if (queryToken) {
    // The token leaves the address bar at once; the replaced navigation reloads the user.
    const page = `${input.pathname}${withoutParam(input.search, 'token')}`;
    if (queryToken === input.storedToken) {
      decision.redirectTo = page;
      return decision;
    }
    // Anyone can send a link with their own session in it, and a tab signed in to it silently would show
    // the victim's work to its sender: the user is asked first, in a fresh tab too (issue 22). A fresh
    // tab waits on the login page; a signed-in one stays where it is.
    decision.offerToken = { token: queryToken, page };
    decision.redirectTo = input.storedToken ? page : loginRedirect(input.now, page);
    return decision;
  }
  if (!input.storedToken) {
    decision.redirectTo = loginRedirect(input.now, `${input.pathname}${input.search}`);
    return decision;
  }
  decision.reloadUser = true;
  return decision;
}

/** Rule 5 (docs/console.md#session): a current-user answer is only good if it carries an email. */
export function hasEmail(user: unknown): boolean {
  if (!user || typeof user !== 'object') return false;
  const email = (user as { email?: unknown }).email;
  return typeof email === 'string' && email.trim() !== '';
}

/** Rule 3: `<product name> - <route title>`; the product name alone when a route has no title. */
export function documentTitle(appName: string, title: string | null | undefined): string {
  return title ? `${appName} - ${title}` : appName;
}

/** Removes the router basename from a browser pathname (`/manage/center` → `/center`). */
export function stripBasename(pathname: string, basename: string): string {
  if (!basename || basename === '/') return pathname || '/';
  if (pathname === basename) return '/';
  if (pathname.startsWith(`${basename}/`)) return pathname.slice(basename.length) || '/';
  return pathname || '/';
}

/** Business constants of the console (docs/console.md#constants). Every other module takes them from here. */

/** Base path the console is served under; Vite's `base` and every absolute browser URL use it. */
export const BASE_PATH = '/manage/';
/** The same path as React Router wants it (no trailing slash). */
export const ROUTER_BASENAME = '/manage';
/** Prefix of every API call. */
export const API_PREFIX = '/api';

export const REQUEST_TIMEOUT_MS = 30_000;
/** Delay before the browser goes to the login page after a 401. */
export const UNAUTHORIZED_REDIRECT_DELAY_MS = 400;
/** Default toast duration. */
export const TOAST_DURATION_MS = 3_000;
export const SUCCESS_STATUS_MIN = 200;
export const SUCCESS_STATUS_MAX = 299;

export const DEFAULT_LANG = 'en' as const;
/** Shown until `GET /api/site` answers with the operator's product name. */
export const FALLBACK_APP_NAME = 'Resi Console';

export const HOME_PATH = '/center';
export const LOGIN_PATH = '/user/login';
export const REGISTER_PATH = '/user/register';
export const ERROR_PATH = '/error';
/** Paths open without a session (docs/console.md#navigation-rules, rule 1). */
export const PUBLIC_PATHS: readonly string[] = [LOGIN_PATH, REGISTER_PATH, ERROR_PATH];

/** Attribution query parameters (docs/console.md#navigation-rules, rule 4), in the order they are looked at. */
export const CHANNEL_PARAMS = ['hz', 'yl', 'qd'] as const;
export type ChannelKey = (typeof CHANNEL_PARAMS)[number];

/** Seconds before another mail code may be requested when the server does not say. */
export const DEFAULT_RESEND_AFTER_S = 60;

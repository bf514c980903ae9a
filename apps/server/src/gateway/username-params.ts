import { COUNTRY_CODES } from './country-codes';
import type { ProxyParams } from './ports';

/**
 * Sticky lifetime bounds in minutes: the contract's STICKY_MIN_LIFE, STICKY_MAX_LIFE and
 * STICKY_DEFAULT_LIFE (a unit test keeps them equal). Not imported from `@resi/contract`, whose index
 * loads zod: about 10 MB of RSS a gateway-only process has no other use for.
 */
export const STICKY_MIN_LIFE = 1;
export const STICKY_MAX_LIFE = 120;
export const STICKY_DEFAULT_LIFE = 10;

const PLACE = /^[a-z0-9]{1,32}$/;
const SESSION = /^[A-Za-z0-9_]{1,64}$/;
const LIFE = /^[0-9]{1,3}$/;
const KEYS = ['country', 'state', 'city', 'session', 'life'] as const;
type Key = (typeof KEYS)[number];
const isKey = (key: string): key is Key => (KEYS as readonly string[]).includes(key);

/** The proxy account a username names: everything before the first `-` (account names have none). */
export function accountOf(username: string): string {
  const dash = username.indexOf('-');
  return (dash === -1 ? username : username.slice(0, dash)).toLowerCase();
}

/**
 * Parses `ACCOUNT[-country-us][-state-ca][-city-losangeles][-session-ID][-life-MIN]` (docs/gateway.md#username), strictly:
 * keys in any order but each once, no unknown key, a real ISO 3166-1 country, state and city only under a
 * country, `life` only with a session and within the sticky bounds. Keys and places are case-insensitive;
 * the session id is kept as written. Returns null when anything is off (refused as BAD_PARAMS).
 */
export function parseUsername(username: string): ProxyParams | null {
  const parts = username.split('-');
  const account = parts[0]!.toLowerCase();
  if (account === '' || parts.length % 2 === 0) return null;
  // A fixed-shape object rather than a Map: this runs for every connection and request.
  const raw: Record<Key, string | undefined> = { country: undefined, state: undefined, city: undefined, session: undefined, life: undefined };
  for (let i = 1; i < parts.length; i += 2) {
    const key = parts[i]!.toLowerCase();
    if (!isKey(key) || raw[key] !== undefined) return null;
    raw[key] = parts[i + 1]!;
  }
  const { country: rawCountry, state: rawState, city: rawCity, session, life } = raw;

  let country: string | null = null;
  if (rawCountry !== undefined) {
    country = rawCountry.toUpperCase();
    if (!COUNTRY_CODES.has(country)) return null;
  }
  const state = place(rawState);
  const city = place(rawCity);
  if (state === undefined || city === undefined) return null;
  if ((state !== null || city !== null) && country === null) return null;

  if (session !== undefined && !SESSION.test(session)) return null;
  let lifeMinutes = STICKY_DEFAULT_LIFE;
  if (life !== undefined) {
    if (session === undefined || !LIFE.test(life)) return null;
    lifeMinutes = Number(life);
    if (lifeMinutes < STICKY_MIN_LIFE || lifeMinutes > STICKY_MAX_LIFE) return null;
  }
  return { account, country, state, city, session: session ?? null, lifeMinutes };
}

/** undefined = invalid, null = absent. */
function place(raw: string | undefined): string | null | undefined {
  if (raw === undefined) return null;
  const v = raw.toLowerCase();
  return PLACE.test(v) ? v : undefined;
}

import { COUNTRY_CODES } from './country-codes';
import type { ProxyParams } from './ports';

/**
 * Sticky lifetime bounds in minutes: the contract's STICKY_MIN_LIFE, STICKY_MAX_LIFE and
 * STICKY_DEFAULT_LIFE (a unit test keeps them equal). Not imported from `@resi/contract`, whose index
 * loads zod: about 10 MB of RSS a gateway-only process has no other use for.
 */
export const STICKY_MIN_LIFE = 1;
export const STICKY_MAX_LIFE = 1440;
export const STICKY_DEFAULT_LIFE = 10;

const PLACE = /^[a-z0-9]{1,32}$/;
const SESSION = /^[A-Za-z0-9_]{1,64}$/;
const LIFE = /^[0-9]{1,4}$/;
const KEYS = ['country', 'state', 'city', 'session', 'life'] as const;
type Key = (typeof KEYS)[number];
const isKey = (key: string): key is Key => (KEYS as readonly string[]).includes(key);

/** The proxy account a username names: everything before the first `-` (account names have none). */
export function accountOf(username: string): string {
  const dash = username.indexOf('-');
  return (dash === -1 ? username : username.slice(0, dash)).toLowerCase();
}

/** Why a username was refused as BAD_PARAMS: the parameter at fault and what is wrong with it. */
export interface BadParam {
  /** A parameter name (`country`, `state`, `city`, `session`, `life`), or `account` / `key` for the shape. */
  bad: 'account' | 'key' | Key;
  why: string;
}

/** A client's own text, quoted for an error body: printable ASCII only, and short. */
function quoted(raw: string): string {
  const clean = raw.replace(/[^\x20-\x7e]/g, '?');
  return JSON.stringify(clean.length > 40 ? `${clean.slice(0, 40)}…` : clean);
}

/**
 * Parses `ACCOUNT[-country-us][-state-ca][-city-losangeles][-session-ID][-life-MIN]` (docs/gateway.md#username), strictly:
 * keys in any order but each once, no unknown key, a real ISO 3166-1 country, state and city only under a
 * country, `life` only with a session and within the sticky bounds. Keys and places are case-insensitive;
 * the session id is kept as written. Anything off is a BadParam naming the parameter, so the refusal can
 * tell the customer what to fix.
 */
export function parseUsername(username: string): ProxyParams | BadParam {
  const parts = username.split('-');
  const account = parts[0]!.toLowerCase();
  if (account === '') return { bad: 'account', why: 'the account name before the first "-" is empty' };
  // A fixed-shape object rather than a Map: this runs for every connection and request.
  const raw: Record<Key, string | undefined> = { country: undefined, state: undefined, city: undefined, session: undefined, life: undefined };
  for (let i = 1; i < parts.length; i += 2) {
    const key = parts[i]!.toLowerCase();
    if (!isKey(key)) return { bad: 'key', why: `${quoted(parts[i]!)} is not a parameter (country, state, city, session, life)` };
    if (i + 1 === parts.length) return { bad: key, why: 'has no value' };
    if (raw[key] !== undefined) return { bad: key, why: 'is given twice' };
    raw[key] = parts[i + 1]!;
  }
  const { country: rawCountry, state: rawState, city: rawCity, session, life } = raw;

  let country: string | null = null;
  if (rawCountry !== undefined) {
    country = rawCountry.toUpperCase();
    if (!COUNTRY_CODES.has(country)) return { bad: 'country', why: `${quoted(rawCountry)} is not a two-letter ISO 3166-1 country code` };
  }
  const state = place(rawState);
  if (state === undefined) return { bad: 'state', why: `${quoted(rawState!)} must be 1 to 32 letters or digits` };
  const city = place(rawCity);
  if (city === undefined) return { bad: 'city', why: `${quoted(rawCity!)} must be 1 to 32 letters or digits` };
  if (country === null && state !== null) return { bad: 'state', why: 'needs a country (-country-CC)' };
  if (country === null && city !== null) return { bad: 'city', why: 'needs a country (-country-CC)' };

  if (session !== undefined && !SESSION.test(session)) return { bad: 'session', why: `${quoted(session)} must be 1 to 64 letters, digits or _` };
  let lifeMinutes = STICKY_DEFAULT_LIFE;
  if (life !== undefined) {
    if (session === undefined) return { bad: 'life', why: 'needs a session (-session-ID)' };
    lifeMinutes = LIFE.test(life) ? Number(life) : NaN;
    if (!(lifeMinutes >= STICKY_MIN_LIFE && lifeMinutes <= STICKY_MAX_LIFE)) {
      return { bad: 'life', why: `${quoted(life)} must be a whole number of minutes from ${STICKY_MIN_LIFE} to ${STICKY_MAX_LIFE}` };
    }
  }
  return { account, country, state, city, session: session ?? null, lifeMinutes };
}

export const isBadParam = (p: ProxyParams | BadParam): p is BadParam => 'bad' in p;

/** undefined = invalid, null = absent. */
function place(raw: string | undefined): string | null | undefined {
  if (raw === undefined) return null;
  const v = raw.toLowerCase();
  return PLACE.test(v) ? v : undefined;
}

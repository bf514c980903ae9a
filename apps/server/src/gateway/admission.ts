import type { MeterKey } from './live-connections';
import type { LoginFailures } from './login-failures';
import type { AuthResult, Exit, ExitChooser, GatewayAuthority, ListenerProtocol, ProxyParams } from './ports';
import type { GatewayReason } from './statuses';
import { type BadParam, STICKY_DEFAULT_LIFE, accountOf, isBadParam, parseUsername } from './username-params';

/**
 * A refusal may name the account it was for (a wrong password), say how long to wait before answering,
 * and (BAD_PARAMS) which username parameter is wrong.
 */
export type Admission =
  | { ok: true; key: MeterKey; params: ProxyParams; exit: Exit }
  | { ok: false; reason: GatewayReason; accountId?: number; delayMs?: number; param?: BadParam };

/**
 * One decision for both listeners: credentials and standing first (so a wrong password never learns
 * whether its parameters were valid), then the username parameters, then an exit (a static IP's own,
 * else the chooser's). No I/O.
 */
export function admit(username: string, password: string, authority: GatewayAuthority, chooser: ExitChooser): Admission {
  const auth = authority.authenticate(accountOf(username), password);
  if (!auth.ok) return auth;
  const params = parseUsername(username);
  if (isBadParam(params)) return { ok: false, reason: 'BAD_PARAMS', param: params };
  return route(auth, params, chooser);
}

/** Where a connection arrived: a port of a listener's range (port endpoints), or (null) its main port. */
export interface Arrival {
  protocol: ListenerProtocol;
  port: number;
}

/**
 * A connection without credentials (docs/gateway.md#allowlist): the account whose allowlist holds the
 * client's address. On a range port leased to one of that customer's accounts, the lease's account and
 * session; on an unleased one, or the main port, the listing account with no region, rotating. A port
 * leased to another customer is refused as an unlisted address is. `miss`: the answer may be stale
 * (an address not listed, a port not leased): worth a fresh read of the store before it stands.
 */
export function admitSource(ip: string, at: Arrival | null, authority: GatewayAuthority, chooser: ExitChooser): { admission: Admission; miss: boolean } {
  const listed = authority.authenticateSource(ip);
  if (!listed.ok) return { admission: listed, miss: listed.reason === 'BAD_CREDENTIALS' };
  const lease = at && authority.portLease(at.protocol, at.port);
  if (!lease) return { admission: route(listed, rotating(listed), chooser, ip), miss: at !== null };
  if (lease.userId !== listed.userId) return { admission: { ok: false, reason: 'BAD_CREDENTIALS' }, miss: false };
  if (!lease.auth.ok) return { admission: lease.auth, miss: false };
  const params = lease.session ? { account: lease.auth.username ?? '', ...lease.session } : rotating(lease.auth);
  return { admission: route(lease.auth, params, chooser, ip), miss: false };
}

function rotating(auth: AuthResult & { ok: true }): ProxyParams {
  return { account: auth.username ?? '', country: null, state: null, city: null, session: null, lifeMinutes: STICKY_DEFAULT_LIFE };
}

/** The exit of an admitted account: a static IP's own (its region or session change nothing), else the chooser's. */
function route(auth: AuthResult & { ok: true }, params: ProxyParams, chooser: ExitChooser, source?: string): Admission {
  const via = source === undefined ? {} : { source };
  if (auth.pinned) return { ok: true, key: { accountId: auth.accountId, userId: auth.userId, country: auth.pinned.country, noBalance: true, ...via }, params, exit: auth.pinned.exit };
  const exit = chooser.choose(params, auth.accountId);
  if ('refusal' in exit) return { ok: false, reason: exit.refusal };
  return { ok: true, key: keyOf({ accountId: auth.accountId, userId: auth.userId, country: params.country, ...via }, exit), params, exit };
}

/** `Proxy-Authorization: Basic base64(user:pass)` (RFC 7617 §2; the scheme is case-insensitive). */
export function basicCredentials(header: string | undefined): { username: string; password: string } {
  if (!header) return { username: '', password: '' };
  const space = header.indexOf(' ');
  if (space === -1 || header.slice(0, space).toLowerCase() !== 'basic') return { username: '', password: '' };
  const decoded = Buffer.from(header.slice(space + 1).trim(), 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon === -1) return { username: decoded, password: '' };
  return { username: decoded.slice(0, colon), password: decoded.slice(colon + 1) };
}

/**
 * `admit` for a client at `ip`, with its record of failed logins: a locked-out address is refused
 * TOO_MANY_FAILURES before its credentials are looked at. No credentials at all: the allowlist decides
 * (`admitSource`). A login or address the cache does not know, or an unleased port, is looked up again
 * after a fresh read of the store (`catchUp`), so what the API made a moment ago on another process
 * works at once; the answer is then a promise. A refusal that stands is counted, per address and per
 * account when the account exists, and may have to wait `delayMs`: a wrong password, an unknown login,
 * and an unlisted address alike — except an unlisted address that logged in lately (`known`), which is
 * a browser asking before it sends its credentials, not a guess.
 */
export function admitFrom(
  ip: string,
  at: Arrival | null,
  username: string,
  password: string,
  authority: GatewayAuthority,
  chooser: ExitChooser,
  failures: LoginFailures,
  known: (ip: string) => boolean,
): Admission | Promise<Admission> {
  if (failures.locked(ip)) return { ok: false, reason: 'TOO_MANY_FAILURES' };
  const bare = username === '' && password === '';
  const decide = (): { admission: Admission; miss: boolean } => {
    if (bare) return admitSource(ip, at, authority, chooser);
    const admission = admit(username, password, authority, chooser);
    return { admission, miss: !admission.ok && admission.reason === 'BAD_CREDENTIALS' && admission.accountId === undefined };
  };
  const settle = (a: Admission): Admission => {
    if (a.ok || a.reason !== 'BAD_CREDENTIALS' || (bare && known(ip))) return a;
    return { ok: false, reason: a.reason, delayMs: failures.failed(ip, a.accountId) };
  };
  const first = decide();
  if (!first.miss) return settle(first.admission);
  return authority.catchUp().then(() => settle(decide().admission));
}

/** The meter key of a connection through `exit`: its bytes are counted for the exit's provider. */
export function keyOf(key: MeterKey, exit: Exit): MeterKey {
  const { providerId: _old, ...rest } = key;
  return exit.providerId === undefined ? rest : { ...rest, providerId: exit.providerId };
}

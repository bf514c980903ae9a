import type { MeterKey } from './live-connections';
import type { LoginFailures } from './login-failures';
import type { Exit, ExitChooser, GatewayAuthority, ProxyParams } from './ports';
import type { GatewayReason } from './statuses';
import { type BadParam, accountOf, isBadParam, parseUsername } from './username-params';

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
  // A static IP's login: a well-formed region or session changes nothing, the exit is the IP's own.
  if (auth.pinned) return { ok: true, key: { accountId: auth.accountId, userId: auth.userId, country: auth.pinned.country, noBalance: true }, params, exit: auth.pinned.exit };
  const exit = chooser.choose(params, auth.accountId);
  if ('refusal' in exit) return { ok: false, reason: exit.refusal };
  return { ok: true, key: { accountId: auth.accountId, userId: auth.userId, country: params.country }, params, exit };
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
 * TOO_MANY_FAILURES before its credentials are looked at; a wrong password is counted (per address,
 * and per account when the account exists) and may have to wait `delayMs` for its answer. A request
 * without a username is not a guess (browsers and curl ask first, then send credentials on 407).
 */
export function admitFrom(ip: string, username: string, password: string, authority: GatewayAuthority, chooser: ExitChooser, failures: LoginFailures): Admission {
  if (failures.locked(ip)) return { ok: false, reason: 'TOO_MANY_FAILURES' };
  const a = admit(username, password, authority, chooser);
  if (a.ok || a.reason !== 'BAD_CREDENTIALS' || username === '') return a;
  return { ok: false, reason: a.reason, delayMs: failures.failed(ip, a.accountId) };
}

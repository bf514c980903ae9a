import { z } from 'zod';
import { entityId } from './ids';
import { formatProxyLine, LINE_FORMATS, MAX_LINES, newSessionId, PROXY_PROTOCOLS, STICKY_DEFAULT_LIFE, STICKY_MAX_LIFE, STICKY_MIN_LIFE, type ProxyEndpoint } from './proxy-line-format';

/** A state or city of the username syntax, as proxy lines and extraction links take it. */
export const regionPlace = z
  .string()
  .trim()
  .toLowerCase()
  .regex(/^[a-z0-9]{1,32}$/, { error: 'validation.regionCode' });

/** A country of the username syntax: two letters, any case. */
export const regionCountry = z
  .string()
  .trim()
  .toLowerCase()
  .regex(/^[a-z]{2}$/, { error: 'validation.country' });

/** What Get Proxy asks for; also the query of the export endpoint. */
export const proxyLinesQuery = z.object({
  accountId: entityId,
  protocol: z.enum(PROXY_PROTOCOLS).default('http'),
  country: regionCountry.optional(),
  state: regionPlace.optional(),
  city: regionPlace.optional(),
  sticky: z.enum(['0', '1']).default('0'),
  lifeMinutes: z.coerce.number().int().min(STICKY_MIN_LIFE).max(STICKY_MAX_LIFE).default(STICKY_DEFAULT_LIFE),
  count: z.coerce.number().int().min(1).max(MAX_LINES).default(10),
  format: z.enum(LINE_FORMATS).default('host:port:user:pass'),
  /**
   * Sticky lines' session ids, comma-separated, one per line: the export then holds exactly the lines
   * the screen shows. Unset: new ones.
   */
  sessions: z
    .string()
    .regex(/^[a-z0-9]{8}(,[a-z0-9]{8}){0,999}$/, { error: 'validation.sessions' })
    .optional(),
}).refine((q) => q.sessions === undefined || q.sessions.split(',').length === q.count, { error: 'validation.sessions', path: ['sessions'] });
export type ProxyLinesQuery = z.infer<typeof proxyLinesQuery>;



/** `ACCOUNT[-country-us][-state-ca][-city-losangeles][-session-ID][-life-MIN]` (docs/gateway.md#username). */
export function proxyUsername(account: string, q: Pick<ProxyLinesQuery, 'country' | 'state' | 'city'>, session?: { id: string; lifeMinutes: number }): string {
  const parts = [account];
  if (q.country) parts.push('country', q.country);
  if (q.country && q.state) parts.push('state', q.state);
  if (q.country && q.city) parts.push('city', q.city);
  if (session) parts.push('session', session.id, 'life', String(session.lifeMinutes));
  return parts.join('-');
}

/**
 * The proxy lines a customer copies: rotating lines are all alike (each connection gets a new exit);
 * sticky lines each carry their own session, so each line keeps its own exit for the lifetime.
 */
export function buildProxyLines(account: { username: string; password: string }, q: Omit<ProxyLinesQuery, 'accountId'>, ep: ProxyEndpoint, sessionId: () => string = newSessionId): string[] {
  const port = q.protocol === 'socks5' ? ep.socksPort : ep.httpPort;
  const scheme = q.protocol === 'socks5' ? 'socks5h' : 'http';
  const given = q.sessions?.split(',');
  return Array.from({ length: q.count }, (_, i) => {
    const username = proxyUsername(account.username, q, q.sticky === '1' ? { id: given?.[i] ?? sessionId(), lifeMinutes: q.lifeMinutes } : undefined);
    return formatProxyLine({ host: ep.host, port, username, password: account.password, scheme }, q.format, ep.checkUrl);
  });
}


export const proxyEndpointDto = z.object({ host: z.string(), httpPort: z.number().int(), socksPort: z.number().int(), checkUrl: z.string() });

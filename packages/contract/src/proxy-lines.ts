import { z } from 'zod';

/** Line formats of Get Proxy and of `GET /proxy/dynamic/export`. */
export const LINE_FORMATS = ['host:port:user:pass', 'user:pass@host:port', 'url', 'curl'] as const;
export type LineFormat = (typeof LINE_FORMATS)[number];
export const PROXY_PROTOCOLS = ['http', 'socks5'] as const;
export type ProxyProtocol = (typeof PROXY_PROTOCOLS)[number];

/** Sticky lifetime bounds in minutes (DESIGN §6). */
export const STICKY_MIN_LIFE = 1;
export const STICKY_MAX_LIFE = 120;
export const STICKY_DEFAULT_LIFE = 10;
export const MAX_LINES = 1000;

const place = z
  .string()
  .trim()
  .toLowerCase()
  .regex(/^[a-z0-9]{1,32}$/, { error: 'validation.regionCode' });

/** What Get Proxy asks for; also the query of the export endpoint. */
export const proxyLinesQuery = z.object({
  accountId: z.coerce.number().int().positive(),
  protocol: z.enum(PROXY_PROTOCOLS).default('http'),
  country: z
    .string()
    .trim()
    .toLowerCase()
    .regex(/^[a-z]{2}$/, { error: 'validation.country' })
    .optional(),
  state: place.optional(),
  city: place.optional(),
  sticky: z.enum(['0', '1']).default('0'),
  lifeMinutes: z.coerce.number().int().min(STICKY_MIN_LIFE).max(STICKY_MAX_LIFE).default(STICKY_DEFAULT_LIFE),
  count: z.coerce.number().int().min(1).max(MAX_LINES).default(10),
  format: z.enum(LINE_FORMATS).default('host:port:user:pass'),
});
export type ProxyLinesQuery = z.infer<typeof proxyLinesQuery>;

export interface ProxyEndpoint {
  host: string;
  httpPort: number;
  socksPort: number;
  /** Where the curl line sends its request (an IP echo service). */
  checkUrl: string;
}

/** Session ids: 8 lowercase letters and digits, from the platform's CSPRNG (browser and Node alike). */
export function newSessionId(): string {
  const alphabet = 'abcdefghijklmnopqrstuvwxyz0123456789';
  const bytes = crypto.getRandomValues(new Uint8Array(8));
  return Array.from(bytes, (b) => alphabet[b % alphabet.length]).join('');
}

/** `ACCOUNT[-country-us][-state-ca][-city-losangeles][-session-ID][-life-MIN]` (DESIGN §6). */
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
  return Array.from({ length: q.count }, () => {
    const user = proxyUsername(account.username, q, q.sticky === '1' ? { id: sessionId(), lifeMinutes: q.lifeMinutes } : undefined);
    const pass = account.password;
    switch (q.format) {
      case 'host:port:user:pass':
        return `${ep.host}:${port}:${user}:${pass}`;
      case 'user:pass@host:port':
        return `${user}:${pass}@${ep.host}:${port}`;
      case 'url':
        return `${scheme}://${user}:${pass}@${ep.host}:${port}`;
      case 'curl':
        return `curl -x ${scheme}://${user}:${pass}@${ep.host}:${port} ${ep.checkUrl}`;
    }
  });
}

export const proxyEndpointDto = z.object({ host: z.string(), httpPort: z.number().int(), socksPort: z.number().int(), checkUrl: z.string() });

/*
 * Proxy lines without zod: the formats, their limits, writing and reading a line. The toolbox's converter
 * needs only these, so its page loads without the schema library (docs/console.md#first-load).
 */

/** Line formats of Get Proxy and of `GET /proxy/dynamic/export`. */
export const LINE_FORMATS = ['host:port:user:pass', 'user:pass@host:port', 'url', 'curl'] as const;
export type LineFormat = (typeof LINE_FORMATS)[number];
export const PROXY_PROTOCOLS = ['http', 'socks5'] as const;
export type ProxyProtocol = (typeof PROXY_PROTOCOLS)[number];

/** Sticky lifetime bounds in minutes (docs/gateway.md#username). */
export const STICKY_MIN_LIFE = 1;
export const STICKY_MAX_LIFE = 1440;
export const STICKY_DEFAULT_LIFE = 10;
export const MAX_LINES = 1000;

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

/** `socks5h`: the proxy resolves the target's name, so the customer's own DNS never sees it. */
export type ProxyScheme = 'http' | 'socks5h';

export interface ProxyLineParts {
  host: string;
  port: number;
  username: string;
  password: string;
  scheme: ProxyScheme;
}

/** One proxy in one of the line formats; `checkUrl` is what the curl line fetches. */
export function formatProxyLine(p: ProxyLineParts, format: LineFormat, checkUrl: string): string {
  switch (format) {
    case 'host:port:user:pass':
      return `${p.host}:${p.port}:${p.username}:${p.password}`;
    case 'user:pass@host:port':
      return `${p.username}:${p.password}@${p.host}:${p.port}`;
    case 'url':
      return `${p.scheme}://${p.username}:${p.password}@${p.host}:${p.port}`;
    case 'curl':
      return `curl -x ${p.scheme}://${p.username}:${p.password}@${p.host}:${p.port} ${checkUrl}`;
  }
}

/** A line read back: the formats without a scheme (host:port:user:pass, user:pass@host:port) have `scheme: null`. */
export interface ParsedProxyLine extends Omit<ProxyLineParts, 'scheme'> {
  format: LineFormat;
  scheme: ProxyScheme | null;
  /** The curl line's target URL. */
  checkUrl: string | null;
}

// Credentials and host as Get Proxy writes them: no separator (`:` `@` `/`) and no space inside.
const CRED = '([^\\s:@/]+)';
const HOST = '([A-Za-z0-9.-]+)';
const PORT = '([0-9]{1,5})';
const HOST_PORT_USER_PASS = new RegExp(`^${HOST}:${PORT}:${CRED}:${CRED}$`);
const USER_PASS_AT = new RegExp(`^${CRED}:${CRED}@${HOST}:${PORT}$`);
const PROXY_URL = new RegExp(`^(http|socks5h?)://${CRED}:${CRED}@${HOST}:${PORT}/?$`, 'i');

/**
 * The inverse of `formatProxyLine`, for lines pasted back in any of its formats; null for anything else.
 * A `socks5://` URL reads as `socks5h` (the gateway resolves names either way); curl takes `-x` or
 * `--proxy` and the URL in either order, and nothing else.
 */
export function parseProxyLine(line: string): ParsedProxyLine | null {
  const text = line.trim();
  const curl = /^curl\s/.test(text) ? parseCurl(text) : null;
  if (curl) return curl;
  let m = PROXY_URL.exec(text);
  if (m) return parts('url', m[4]!, m[5]!, m[2]!, m[3]!, m[1]!.toLowerCase() === 'http' ? 'http' : 'socks5h');
  m = USER_PASS_AT.exec(text);
  if (m) return parts('user:pass@host:port', m[3]!, m[4]!, m[1]!, m[2]!, null);
  m = HOST_PORT_USER_PASS.exec(text);
  if (m) return parts('host:port:user:pass', m[1]!, m[2]!, m[3]!, m[4]!, null);
  return null;
}

function parseCurl(text: string): ParsedProxyLine | null {
  const args = text.split(/\s+/).slice(1);
  let proxy: string | null = null;
  let target: string | null = null;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === '-x' || arg === '--proxy') {
      if (proxy !== null || i + 1 >= args.length) return null;
      proxy = args[++i]!;
    } else if (!arg.startsWith('-') && target === null) {
      target = arg;
    } else {
      return null;
    }
  }
  const p = proxy === null || target === null ? null : parseProxyLine(proxy);
  if (!p || p.format !== 'url') return null;
  return { ...p, format: 'curl', checkUrl: target };
}

function parts(format: LineFormat, host: string, port: string, username: string, password: string, scheme: ProxyScheme | null): ParsedProxyLine | null {
  const n = Number(port);
  if (n < 1 || n > 65535) return null;
  return { format, host, port: n, username, password, scheme, checkUrl: null };
}

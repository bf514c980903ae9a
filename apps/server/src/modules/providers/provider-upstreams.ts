import type { ProviderUpstream } from '@resi/contract';
import { AppError } from '../../shared/errors';
import { upstreamUrl } from '../../shared/upstream-url';

export const MASK = '****';

/** An upstream row's columns (table `upstreams`), the password still in clear. */
export interface UpstreamColumns {
  protocol: 'http' | 'socks5';
  host: string;
  port: number;
  username: string | null;
  password: string | null;
  country: string | null;
  state: string | null;
  city: string | null;
}

/** A stored row as the admin sees it: its URL with the password masked. */
export function maskedUpstreamUrl(u: Omit<UpstreamColumns, 'country' | 'state' | 'city'>): string {
  return upstreamUrl({ ...u, password: u.password ? MASK : null });
}

/** The contract has checked the URL's shape (scheme, host, port); its parts become the row's columns. */
export function upstreamColumns(u: ProviderUpstream): UpstreamColumns {
  const url = new URL(u.url);
  const host = url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname;
  return {
    protocol: url.protocol === 'http:' ? 'http' : 'socks5',
    host,
    port: Number(url.port),
    username: url.username ? decodeURIComponent(url.username) : null,
    password: url.password ? decodeURIComponent(url.password) : null,
    country: u.country,
    state: u.state,
    city: u.city,
  };
}

const identity = (u: Pick<UpstreamColumns, 'protocol' | 'host' | 'port' | 'username'>) => `${u.protocol}|${u.host}|${u.port}|${u.username ?? ''}`;

/**
 * A URL saved back with its masked password keeps the stored password of the same upstream (scheme,
 * host, port and user) of this provider, as payment secrets do; one that matches none is refused with
 * its line, since the password it stood for is unknown.
 */
export function keepMaskedPasswords(next: UpstreamColumns[], stored: UpstreamColumns[], detail: (line: number) => string): UpstreamColumns[] {
  const known = new Map(stored.map((u) => [identity(u), u.password]));
  return next.map((u, i) => {
    if (u.password !== MASK) return u;
    const password = known.get(identity(u));
    if (password === undefined) throw new AppError('VALIDATION_FAILED', { detail: detail(i + 1) });
    return { ...u, password };
  });
}

import ipaddr from 'ipaddr.js';

/*
 * Source addresses that logged in to the gateway lately, shared by both listeners
 * (docs/gateway.md#connection-limits-and-failed-logins). Only right credentials put an address here, so
 * a flood of anonymous connections cannot: a known address is let past the per-network cap and the
 * unauthenticated share of the budget, which is how a paying customer keeps getting in while strangers
 * hold every pending slot of their /24.
 */

export interface KnownSourcesPolicy {
  /** An address counts as known this long after its last successful login. */
  ttlMs: number;
  /** Addresses remembered at most (the least recently seen are forgotten first). */
  max: number;
}

export const DEFAULT_KNOWN_SOURCES: KnownSourcesPolicy = { ttlMs: 60 * 60_000, max: 100_000 };

/** A login refreshes its address at most this often: a busy customer's every CONNECT need not touch the map. */
const REFRESH_MS = 60_000;

export class KnownSources {
  /**
   * A Map in insertion order is the LRU (as in login-failures.ts): a refreshed address is re-inserted at
   * the end, the first one is the least recent. Hand-written because these lines are all it needs.
   */
  private readonly seen = new Map<string, number>();

  constructor(
    private readonly policy: KnownSourcesPolicy = DEFAULT_KNOWN_SOURCES,
    private readonly now: () => number = Date.now,
  ) {}

  /** Right credentials from `ip`. */
  loggedIn(ip: string): void {
    const now = this.now();
    const last = this.seen.get(ip);
    if (last !== undefined && now - last < REFRESH_MS) return;
    this.seen.delete(ip);
    this.seen.set(ip, now);
    if (this.seen.size > this.policy.max) this.seen.delete(this.seen.keys().next().value!);
  }

  has(ip: string): boolean {
    const last = this.seen.get(ip);
    return last !== undefined && this.now() - last < this.policy.ttlMs;
  }
}

/**
 * The network a source address is counted in: its /24 for IPv4 (IPv4-mapped IPv6 included), its /64 for
 * IPv6 — what one subscriber, one cloud instance or one small hosting block usually holds.
 */
export function networkOf(ip: string): string {
  // Dotted IPv4, as an IPv4 listener's peers are: no parse on the path of every new connection.
  if (!ip.includes(':')) return `${ip.slice(0, ip.lastIndexOf('.'))}.0/24`;
  if (!ipaddr.isValid(ip)) return ip;
  let addr = ipaddr.parse(ip);
  if (addr.kind() === 'ipv6' && (addr as ipaddr.IPv6).isIPv4MappedAddress()) addr = (addr as ipaddr.IPv6).toIPv4Address();
  if (addr.kind() === 'ipv4') return `${(addr as ipaddr.IPv4).octets.slice(0, 3).join('.')}.0/24`;
  return `${(addr as ipaddr.IPv6).parts
    .slice(0, 4)
    .map((p) => p.toString(16))
    .join(':')}::/64`;
}

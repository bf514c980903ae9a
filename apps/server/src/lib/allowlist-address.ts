import ipaddr from 'ipaddr.js';

/*
 * Allowlist addresses (docs/gateway.md#allowlist): one IP or a CIDR no wider than /24 (IPv4) or /64
 * (IPv6), and matching a client's address against a set of them. ipaddr.js parses every spelling and
 * turns IPv4-mapped IPv6 (`::ffff:127.0.0.2`, how a dual-stack socket reports IPv4 clients) into IPv4.
 */

/** The narrowest prefixes an entry may have: wider ranges would let one customer claim a provider's block. */
export const WIDEST_PREFIX = { ipv4: 24, ipv6: 64 } as const;

export interface AllowlistRange {
  /** Canonical: the network address, and `/prefix` unless it is a single address. */
  address: string;
  family: 'ipv4' | 'ipv6';
  prefix: number;
  /** First and last address as 32 hex digits, IPv4 mapped into IPv6: ranges compare as text. */
  start: string;
  end: string;
}

/** Parses an address or CIDR as a customer writes it; null when it is not one or is too wide. */
export function parseAllowlistAddress(text: string): AllowlistRange | null {
  let addr: ipaddr.IPv4 | ipaddr.IPv6;
  let prefix: number;
  // IPv4 only in dotted-quad decimal: ipaddr.js also reads `1.2.3` and `0x7f.1`, which nobody means here.
  const host = text.split('/')[0]!;
  if (!host.includes(':') && !/^\d{1,3}(\.\d{1,3}){3}$/.test(host)) return null;
  try {
    if (text.includes('/')) [addr, prefix] = ipaddr.parseCIDR(text);
    else {
      addr = ipaddr.parse(text);
      prefix = addr.kind() === 'ipv4' ? 32 : 128;
    }
  } catch {
    return null;
  }
  if (addr.kind() === 'ipv6' && (addr as ipaddr.IPv6).isIPv4MappedAddress()) {
    if (prefix < 96) return null;
    addr = (addr as ipaddr.IPv6).toIPv4Address();
    prefix -= 96;
  }
  const family = addr.kind();
  const bits = family === 'ipv4' ? 32 : 128;
  if (prefix < WIDEST_PREFIX[family] || prefix > bits) return null;
  const bytes = masked(addr.toByteArray(), prefix);
  const network = ipaddr.fromByteArray(bytes);
  const last = bytes.map((b, i) => b | (0xff >> Math.min(8, Math.max(0, prefix - i * 8))) & 0xff);
  return {
    address: prefix === bits ? network.toString() : `${network.toString()}/${prefix}`,
    family,
    prefix,
    start: hex16(bytes, family),
    end: hex16(last, family),
  };
}

/** A client's address as the allowlist sees it (IPv4-mapped IPv6 as IPv4); null when unparsable. */
export function clientAddress(ip: string): ipaddr.IPv4 | ipaddr.IPv6 | null {
  try {
    return ipaddr.process(ip);
  } catch {
    return null;
  }
}

/** The first `prefix` bits of an address's bytes, the rest zero: its network. */
export function masked(bytes: number[], prefix: number): number[] {
  return bytes.map((b, i) => b & (0xff << (8 - Math.min(8, Math.max(0, prefix - i * 8)))) & 0xff);
}

function hex16(bytes: number[], family: 'ipv4' | 'ipv6'): string {
  const all = family === 'ipv4' ? [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff, ...bytes] : bytes;
  return all.map((b) => b.toString(16).padStart(2, '0')).join('');
}

/**
 * Which entry a client address falls in: one map per prefix length in use, so a lookup is a handful of
 * map reads whatever the number of entries. Entries never overlap across accounts (the API refuses it),
 * so the first match is the only owner.
 */
export class AddressMatcher<T> {
  private readonly byPrefix = new Map<string, Map<string, T>>();
  /** Prefix lengths in use per family, longest first: a single address inside a range of the same account is the entry named. */
  private readonly lengths = { ipv4: [] as number[], ipv6: [] as number[] };

  add(range: AllowlistRange, value: T): void {
    const key = `${range.family}/${range.prefix}`;
    let m = this.byPrefix.get(key);
    if (!m) {
      this.byPrefix.set(key, (m = new Map()));
      this.lengths[range.family].push(range.prefix);
      this.lengths[range.family].sort((a, b) => b - a);
    }
    m.set(range.start, value);
  }

  /** Removes the range when it still holds `value` (another owner may have taken it since). */
  delete(range: AllowlistRange, value: T): void {
    const m = this.byPrefix.get(`${range.family}/${range.prefix}`);
    if (m?.get(range.start) === value) m.delete(range.start);
  }

  get size(): number {
    let n = 0;
    for (const m of this.byPrefix.values()) n += m.size;
    return n;
  }

  match(ip: string): T | undefined {
    if (this.byPrefix.size === 0) return undefined;
    const addr = clientAddress(ip);
    if (!addr) return undefined;
    const family = addr.kind();
    const bytes = addr.toByteArray();
    for (const prefix of this.lengths[family]) {
      const hit = this.byPrefix.get(`${family}/${prefix}`)!.get(hex16(masked(bytes, prefix), family));
      if (hit !== undefined) return hit;
    }
    return undefined;
  }
}

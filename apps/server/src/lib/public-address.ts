import net from 'node:net';

/*
 * Which addresses are public unicast: the gateway dials only those itself (gateway/destination-guard.ts),
 * static IPs' upstreams included, and the static import takes only upstreams there
 * (modules/static-ips/upstream-host-check.ts). Anything else
 * reaches the host's own services, its private network or the cloud metadata service (169.254.169.254).
 *
 * Node's built-in `net.BlockList` holds the ranges: it parses every IPv6 spelling (`::ffff:7f00:1`,
 * `0:0:0:0:0:ffff:127.0.0.1`) and matches IPv4-mapped addresses against IPv4 ranges, so no
 * hand-written address parsing is needed and no dependency.
 */

/**
 * Addresses that are not public unicast: IANA's special-purpose registries (RFC 6890) for IPv4, plus
 * multicast and the reserved 240/4. `[address, prefix, why]`.
 */
export const NON_PUBLIC_IPV4: readonly (readonly [string, number, string])[] = [
  ['0.0.0.0', 8, 'unspecified, "this network" (RFC 1122)'],
  ['10.0.0.0', 8, 'private (RFC 1918)'],
  ['100.64.0.0', 10, 'carrier-grade NAT (RFC 6598)'],
  ['127.0.0.0', 8, 'loopback'],
  ['169.254.0.0', 16, 'link-local, cloud metadata (RFC 3927)'],
  ['172.16.0.0', 12, 'private (RFC 1918)'],
  ['192.0.0.0', 24, 'IETF protocol assignments (RFC 6890)'],
  ['192.0.2.0', 24, 'documentation, TEST-NET-1 (RFC 5737)'],
  ['192.88.99.0', 24, 'former 6to4 relay anycast (RFC 7526)'],
  ['192.168.0.0', 16, 'private (RFC 1918)'],
  ['198.18.0.0', 15, 'benchmarking (RFC 2544)'],
  ['198.51.100.0', 24, 'documentation, TEST-NET-2 (RFC 5737)'],
  ['203.0.113.0', 24, 'documentation, TEST-NET-3 (RFC 5737)'],
  ['224.0.0.0', 4, 'multicast'],
  ['240.0.0.0', 4, 'reserved (RFC 1112), with the broadcast address 255.255.255.255'],
];

/** Inside 2000::/3 (global unicast), the blocks that are not public. */
export const NON_PUBLIC_IPV6: readonly (readonly [string, number, string])[] = [
  ['2001::', 23, 'IETF protocol assignments: Teredo, benchmarking 2001:2::/48, ORCHID (RFC 6890)'],
  ['2001:db8::', 32, 'documentation (RFC 3849)'],
  ['3fff::', 20, 'documentation (RFC 9637)'],
];

/**
 * The IPv6 space a public destination can be in: global unicast (RFC 4291 §2.4), and the two prefixes
 * that carry an IPv4 address, which is then judged by the IPv4 ranges (below). Everything else —
 * unspecified `::`, loopback `::1`, IPv4-compatible `::a.b.c.d`, unique-local fc00::/7, link-local
 * fe80::/10, site-local, multicast ff00::/8, discard 100::/64, local-use NAT64 64:ff9b:1::/48 — is not.
 */
const IPV6_SPACE = new net.BlockList();
IPV6_SPACE.addSubnet('2000::', 3, 'ipv6');
IPV6_SPACE.addSubnet('::ffff:0:0', 96, 'ipv6'); // IPv4-mapped (RFC 4291 §2.5.5.2)
IPV6_SPACE.addSubnet('64:ff9b::', 96, 'ipv6'); // NAT64 well-known prefix (RFC 6052)

const NON_PUBLIC = new net.BlockList();
for (const [v4, bits] of NON_PUBLIC_IPV4) {
  NON_PUBLIC.addSubnet(v4, bits, 'ipv4');
  // The same IPv4 range wherever IPv6 carries it: IPv4-mapped (BlockList matches these against the
  // IPv4 rule too; listed so as not to depend on it), NAT64 and 6to4 (2002:AABB:CCDD::/48, RFC 3056).
  NON_PUBLIC.addSubnet(`::ffff:${v4}`, 96 + bits, 'ipv6');
  NON_PUBLIC.addSubnet(`64:ff9b::${v4}`, 96 + bits, 'ipv6');
  const [a, b, c, d] = v4.split('.').map(Number) as [number, number, number, number];
  NON_PUBLIC.addSubnet(`2002:${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}::`, 16 + bits, 'ipv6');
}
for (const [v6, bits] of NON_PUBLIC_IPV6) NON_PUBLIC.addSubnet(v6, bits, 'ipv6');

/** Whether `address` (an IP literal in any spelling) is a public unicast address; false for a name. */
export function isPublicUnicast(address: string): boolean {
  // A zone index (`fe80::1%eth0`) names a local link; BlockList would not match it, so cut it off first.
  const ip = address.includes('%') ? address.slice(0, address.indexOf('%')) : address;
  const family = net.isIP(ip);
  if (family === 4) return !NON_PUBLIC.check(ip, 'ipv4');
  if (family === 6) return IPV6_SPACE.check(ip, 'ipv6') && !NON_PUBLIC.check(ip, 'ipv6');
  return false;
}

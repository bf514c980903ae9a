import { describe, expect, it } from 'vitest';
import { NON_PUBLIC_IPV4, NON_PUBLIC_IPV6, isPublicUnicast } from './public-address';

/** Every range: its first and last address, and the neighbours just outside it (public unless listed). */
const V4_EDGES: [string, string, string, string][] = [
  // first, last, just below, just above
  ['0.0.0.0', '0.255.255.255', '', '1.0.0.0'],
  ['10.0.0.0', '10.255.255.255', '9.255.255.255', '11.0.0.0'],
  ['100.64.0.0', '100.127.255.255', '100.63.255.255', '100.128.0.0'],
  ['127.0.0.0', '127.255.255.255', '126.255.255.255', '128.0.0.0'],
  ['169.254.0.0', '169.254.255.255', '169.253.255.255', '169.255.0.0'],
  ['172.16.0.0', '172.31.255.255', '172.15.255.255', '172.32.0.0'],
  ['192.0.0.0', '192.0.0.255', '191.255.255.255', '192.0.1.0'],
  ['192.0.2.0', '192.0.2.255', '192.0.1.255', '192.0.3.0'],
  ['192.88.99.0', '192.88.99.255', '192.88.98.255', '192.88.100.0'],
  ['192.168.0.0', '192.168.255.255', '192.167.255.255', '192.169.0.0'],
  ['198.18.0.0', '198.19.255.255', '198.17.255.255', '198.20.0.0'],
  ['198.51.100.0', '198.51.100.255', '198.51.99.255', '198.51.101.0'],
  ['203.0.113.0', '203.0.113.255', '203.0.112.255', '203.0.114.0'],
  ['224.0.0.0', '239.255.255.255', '223.255.255.255', ''],
  ['240.0.0.0', '255.255.255.255', '', ''],
];

describe('address classification', () => {
  it('has a case for every IPv4 range it refuses', () => {
    expect(V4_EDGES.map((e) => e[0])).toEqual(NON_PUBLIC_IPV4.map((r) => r[0]));
  });

  it.each(V4_EDGES)('refuses %s to %s, and in IPv6 forms; the neighbours are public', (first, last, below, above) => {
    for (const ip of [first, last]) {
      expect(isPublicUnicast(ip), ip).toBe(false);
      // IPv4-mapped (both spellings), NAT64 and 6to4 carry the same address.
      const [a, b, c, d] = ip.split('.').map(Number) as [number, number, number, number];
      const hex = `${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
      for (const v6 of [`::ffff:${ip}`, `::ffff:${hex}`, `0:0:0:0:0:ffff:${hex}`, `64:ff9b::${ip}`, `2002:${hex}::1`]) expect(isPublicUnicast(v6), v6).toBe(false);
    }
    for (const ip of [below, above].filter(Boolean)) {
      expect(isPublicUnicast(ip), ip).toBe(true);
      expect(isPublicUnicast(`::ffff:${ip}`), `::ffff:${ip}`).toBe(true);
    }
  });

  it.each([
    ['::', 'unspecified'],
    ['::1', 'loopback'],
    ['0:0:0:0:0:0:0:1', 'loopback, long form'],
    ['::127.0.0.1', 'IPv4-compatible (deprecated)'],
    ['::8.8.8.8', 'IPv4-compatible (deprecated)'],
    ['fc00::1', 'unique-local'],
    ['fdff:ffff::1', 'unique-local'],
    ['fe80::1', 'link-local'],
    ['fe80::1%eth0', 'link-local with a zone'],
    ['febf:ffff::1', 'link-local, last /10'],
    ['fec0::1', 'site-local (deprecated)'],
    ['ff02::1', 'multicast'],
    ['ff0e::1', 'multicast, global scope'],
    ['100::1', 'discard-only'],
    ['64:ff9b:1::1', 'local-use NAT64'],
    ['2001::1', 'Teredo'],
    ['2001:2::1', 'benchmarking'],
    ['2001:1ff:ffff::1', 'IETF protocol assignments, last'],
    ['2001:db8::1', 'documentation'],
    ['3fff::1', 'documentation (RFC 9637)'],
    ['4000::1', 'unassigned, outside 2000::/3'],
  ])('refuses %s (%s)', (ip) => {
    expect(isPublicUnicast(ip)).toBe(false);
  });

  it('lists each IPv6 block with a case above', () => {
    expect(NON_PUBLIC_IPV6.map((r) => r[0])).toEqual(['2001::', '2001:db8::', '3fff::']);
  });

  it.each(['8.8.8.8', '1.1.1.1', '93.184.215.14', '2606:4700::1111', '2a00:1450:4001:80b::200e', '2001:200::1', '2002:808:808::1', '64:ff9b::8.8.8.8', '::ffff:1.1.1.1'])(
    'lets %s through',
    (ip) => {
      expect(isPublicUnicast(ip)).toBe(true);
    },
  );

  it('is false for anything that is not an IP literal', () => {
    for (const s of ['localhost', 'example.com', '', '127.1', '0x7f000001', '2130706433', '[::1]', '1.2.3.4.5']) expect(isPublicUnicast(s), s).toBe(false);
  });
});

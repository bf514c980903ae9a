import { describe, expect, it } from 'vitest';
import { AddressMatcher, parseAllowlistAddress } from './allowlist-address';

describe('allowlist addresses', () => {
  it('reads single addresses and ranges in canonical form, host bits cleared', () => {
    expect(parseAllowlistAddress('198.51.100.7')).toMatchObject({ address: '198.51.100.7', family: 'ipv4', prefix: 32 });
    expect(parseAllowlistAddress('198.51.100.77/24')).toMatchObject({ address: '198.51.100.0/24', start: '00000000000000000000ffffc6336400', end: '00000000000000000000ffffc63364ff' });
    expect(parseAllowlistAddress('::ffff:127.0.0.2')).toMatchObject({ address: '127.0.0.2', family: 'ipv4' });
    expect(parseAllowlistAddress('2001:DB8:0:0:1::1/64')).toMatchObject({ address: '2001:db8::/64', family: 'ipv6', prefix: 64 });
    expect(parseAllowlistAddress('2001:db8::/64')?.end).toBe('20010db800000000ffffffffffffffff');
  });

  it('refuses what is not an address or is wider than /24 and /64', () => {
    for (const bad of ['', 'localhost', '1.2.3', '1.2.3.4/23', '10.0.0.0/8', '2001:db8::/48', '1.2.3.4/33', '::ffff:1.2.3.4/100', '1.2.3.4 ', '0x7f.1']) {
      expect(parseAllowlistAddress(bad), bad).toBeNull();
    }
  });

  it('matches a client in a range or on an address, IPv4-mapped clients included, and nothing else', () => {
    const m = new AddressMatcher<string>();
    m.add(parseAllowlistAddress('198.51.100.0/24')!, 'range');
    m.add(parseAllowlistAddress('198.51.100.9')!, 'single');
    m.add(parseAllowlistAddress('2001:db8:1::/64')!, 'v6');
    expect(m.match('198.51.100.200')).toBe('range');
    expect(m.match('::ffff:198.51.100.9')).toBe('single');
    expect(m.match('2001:db8:1::abcd')).toBe('v6');
    expect(m.match('198.51.101.1')).toBeUndefined();
    expect(m.match('2001:db8:2::1')).toBeUndefined();
    expect(m.match('not an ip')).toBeUndefined();
    expect(m.size).toBe(3);
  });
});

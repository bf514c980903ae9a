import { STATIC_IMPORT_MAX_LINES } from '@resi/contract';
import { describe, expect, it } from 'vitest';
import { normalIp, parseInventoryLines } from './inventory-lines';

describe('static inventory import lines', () => {
  it('reads URL lines (http, socks5), colon lines and an optional exit IP', () => {
    const text = [
      'http://alice:p%40ss@203.0.113.7:8000',
      'socks5://bob:pw@gw.isp.example:1080   198.51.100.9',
      '# a comment, then a blank line',
      '',
      '203.0.113.8:3128:carol:pa:ss',
      '203.0.113.9:3128',
      'socks5://[2001:DB8::1]:1080',
    ].join('\r\n');
    expect(parseInventoryLines(text)).toEqual([
      { line: 1, exitIp: '203.0.113.7', upstream: { protocol: 'http', host: '203.0.113.7', port: 8000, username: 'alice', password: 'p@ss' } },
      { line: 2, exitIp: '198.51.100.9', upstream: { protocol: 'socks5', host: 'gw.isp.example', port: 1080, username: 'bob', password: 'pw' } },
      { line: 5, exitIp: '203.0.113.8', upstream: { protocol: 'http', host: '203.0.113.8', port: 3128, username: 'carol', password: 'pa:ss' } },
      { line: 6, exitIp: '203.0.113.9', upstream: { protocol: 'http', host: '203.0.113.9', port: 3128, username: null, password: null } },
      { line: 7, exitIp: '2001:db8::1', upstream: { protocol: 'socks5', host: '2001:db8::1', port: 1080, username: null, password: null } },
    ]);
  });

  it.each([
    ['ftp://u:p@203.0.113.7:21', 'scheme'],
    ['http://u:p@203.0.113.7', 'port'],
    ['http://u:p@203.0.113.7:0', 'port'],
    ['203.0.113.7:99999:u:p', 'port'],
    ['http://u:p@203.0.113.7:80/path', 'format'],
    ['203.0.113.7:80:user', 'format'],
    ['203.0.113.7', 'format'],
    ['http://u:p@gw.isp.example:80', 'exitIpMissing'],
    ['http://u:p@gw.isp.example:80 not-an-ip', 'exitIp'],
    ['http://u:p@203.0.113.7:80 203.0.113.8 extra', 'format'],
    ['bad host!:80:u:p', 'format'],
  ])('refuses %s (%s)', (line, problem) => {
    expect(parseInventoryLines(line)).toEqual([{ line: 1, problem }]);
  });

  it(`takes at most ${STATIC_IMPORT_MAX_LINES} lines and reports the rest`, () => {
    const lines = Array.from({ length: STATIC_IMPORT_MAX_LINES + 2 }, (_, i) => `10.0.${i >> 8}.${i & 255}:80`);
    const parsed = parseInventoryLines(lines.join('\n'));
    expect(parsed.filter((p) => 'problem' in p)).toEqual([
      { line: STATIC_IMPORT_MAX_LINES + 1, problem: 'tooMany' },
      { line: STATIC_IMPORT_MAX_LINES + 2, problem: 'tooMany' },
    ]);
  });

  it('writes IPs one way', () => {
    expect([normalIp('[2001:DB8:0::1]'), normalIp('203.0.113.7'), normalIp('example.com'), normalIp('1.2.3')]).toEqual(['2001:db8::1', '203.0.113.7', null, null]);
  });
});

import { buildProxyLines, LINE_FORMATS, type ProxyProtocol } from '@resi/contract';
import { describe, expect, it } from 'vitest';
import { convertLines } from './convert-lines';

const endpoint = { host: 'gw.example.net', httpPort: 7777, socksPort: 7778, checkUrl: 'https://ip.example.net/json' };
const account = { username: 'shop_1', password: 'Secret123' };

/** Two sticky US lines in `format`, with fixed session ids, exactly as Get Proxy builds them. */
function lines(format: (typeof LINE_FORMATS)[number], protocol: ProxyProtocol): string[] {
  let n = 0;
  const q = { protocol, country: 'us', sticky: '1', lifeMinutes: 30, count: 2, format } as const;
  return buildProxyLines(account, q, endpoint, () => `s${++n}`);
}

describe('convertLines', () => {
  for (const protocol of ['http', 'socks5'] as const) {
    for (const from of LINE_FORMATS) {
      for (const to of LINE_FORMATS) {
        it(`${protocol}: ${from} → ${to} gives what Get Proxy gives in ${to}`, () => {
          expect(convertLines(lines(from, protocol).join('\n'), to, endpoint)).toEqual({ lines: lines(to, protocol), errors: [] });
        });
      }
    }
  }

  it('reads the scheme from the line when it has one, else SOCKS5 only for this gateway\'s SOCKS5 port', () => {
    const input = ['socks5://u:p@other.example:1080', 'u:p@other.example:7778', 'gw.example.net:7778:u:p', 'gw.example.net:7777:u:p'].join('\n');
    expect(convertLines(input, 'url', endpoint).lines).toEqual([
      'socks5h://u:p@other.example:1080',
      'http://u:p@other.example:7778',
      'socks5h://u:p@gw.example.net:7778',
      'http://u:p@gw.example.net:7777',
    ]);
  });

  it('keeps a curl line\'s own target URL and accepts --proxy and either order', () => {
    const input = 'curl https://example.org/ip --proxy http://u:p@gw.example.net:7777\n  curl -x socks5h://u:p@gw.example.net:7778 https://a.example/  ';
    expect(convertLines(input, 'curl', endpoint).lines).toEqual([
      'curl -x http://u:p@gw.example.net:7777 https://example.org/ip',
      'curl -x socks5h://u:p@gw.example.net:7778 https://a.example/',
    ]);
  });

  it('skips blank lines and reports each unreadable one with its line number', () => {
    const input = [
      'gw.example.net:7777:u:p',
      '',
      'not a proxy',
      'gw.example.net:70000:u:p',
      'https://u:p@gw.example.net:7777',
      'curl -x http://u:p@gw.example.net:7777',
      'curl -v -x http://u:p@gw.example.net:7777 https://e.example/',
      'u:p:x@gw.example.net:7777',
      '   ',
      'u:p@gw.example.net:7777',
    ].join('\r\n');
    expect(convertLines(input, 'host:port:user:pass', endpoint)).toEqual({
      lines: ['gw.example.net:7777:u:p', 'gw.example.net:7777:u:p'],
      errors: [
        { line: 3, text: 'not a proxy' },
        { line: 4, text: 'gw.example.net:70000:u:p' },
        { line: 5, text: 'https://u:p@gw.example.net:7777' },
        { line: 6, text: 'curl -x http://u:p@gw.example.net:7777' },
        { line: 7, text: 'curl -v -x http://u:p@gw.example.net:7777 https://e.example/' },
        { line: 8, text: 'u:p:x@gw.example.net:7777' },
      ],
    });
  });
});

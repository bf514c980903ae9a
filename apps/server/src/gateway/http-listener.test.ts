import { describe, expect, it } from 'vitest';
import { parseConnectHead, parseConnectTarget } from './http-listener';

describe('CONNECT fast path parsing', () => {
  const head = (s: string) => parseConnectHead(Buffer.from(s, 'latin1'));

  it('reads target, credentials and the bytes after the head', () => {
    expect(head('CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\nproxy-AUTHORIZATION:  Basic abc= \r\n\r\n\x16\x03')).toEqual({
      target: 'example.com:443',
      auth: 'Basic abc=',
      rest: Buffer.from('\x16\x03', 'latin1'),
    });
    expect(head('CONNECT [::1]:80 HTTP/1.0\r\n\r\n')?.auth).toBeUndefined();
  });

  it.each([
    ['another method', 'GET http://a/ HTTP/1.1\r\nHost: a\r\n\r\n'],
    ['an incomplete head', 'CONNECT a:443 HTTP/1.1\r\nHost: a\r\n'],
    ['HTTP/2 in the request line', 'CONNECT a:443 HTTP/2\r\n\r\n'],
    ['a folded header line', 'CONNECT a:443 HTTP/1.1\r\nHost: a\r\n  folded\r\n\r\n'],
    ['space before the colon', 'CONNECT a:443 HTTP/1.1\r\nProxy-Authorization : Basic x\r\n\r\n'],
    ['two Proxy-Authorization headers', 'CONNECT a:443 HTTP/1.1\r\nProxy-Authorization: Basic x\r\nProxy-Authorization: Basic y\r\n\r\n'],
  ])('leaves %s to the HTTP parser', (_, text) => {
    expect(head(text)).toBeNull();
  });

  it('accepts only host:port targets with a port from 1 to 65535', () => {
    expect(parseConnectTarget('example.com:443')).toEqual({ host: 'example.com', port: 443 });
    expect(parseConnectTarget('[2001:db8::1]:8443')).toEqual({ host: '2001:db8::1', port: 8443 });
    for (const bad of ['example.com', 'example.com:0', 'example.com:65536', ':80', 'a b:80', '[::1:80', 'u@h:80', '1:2:3']) expect(parseConnectTarget(bad)).toBeNull();
  });
});

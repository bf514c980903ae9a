import { describe, expect, it } from 'vitest';
import { extractUrl } from './extract-url';

describe('extractUrl', () => {
  it('carries the key and only what differs from the defaults', () => {
    expect(extractUrl('https://c.example', 'ek_abc', { num: 10, protocol: 'http', format: 'txt', sep: 'crlf', region: [], life: null })).toBe('https://c.example/api/extract?key=ek_abc&num=10');
  });

  it('writes region, life, protocol, format and separator', () => {
    const url = new URL(extractUrl('http://127.0.0.1:8080', 'ek_1', { num: 3, protocol: 'socks5', format: 'json', sep: 'lf', region: ['us', 'ca', 'losangeles'], life: 30 }));
    expect(Object.fromEntries(url.searchParams)).toEqual({ key: 'ek_1', num: '3', protocol: 'socks5', format: 'json', sep: 'lf', country: 'us', state: 'ca', city: 'losangeles', life: '30' });
  });
});

import { buildProxyLines } from '@resi/contract';
import { describe, expect, it } from 'vitest';
import { DEFAULT_LINE_SETTINGS, linesQuery } from './line-settings';

const endpoint = { host: 'gw.example.net', httpPort: 7777, socksPort: 7778, checkUrl: 'https://ip.example.net/' };
const account = { username: 'shop_1', password: 'Secret123' };

describe('Get Proxy settings', () => {
  it('needs an account and a count and lifetime in range', () => {
    expect(linesQuery(DEFAULT_LINE_SETTINGS)).toBeNull();
    expect(linesQuery({ ...DEFAULT_LINE_SETTINGS, accountId: 1, count: 0 })).toBeNull();
    expect(linesQuery({ ...DEFAULT_LINE_SETTINGS, accountId: 1, count: 1001 })).toBeNull();
    expect(linesQuery({ ...DEFAULT_LINE_SETTINGS, accountId: 1, sticky: true, lifeMinutes: 1441 })).toBeNull();
    // A rotating line has no lifetime, so whatever the hidden field holds does not matter.
    expect(linesQuery({ ...DEFAULT_LINE_SETTINGS, accountId: 1, lifeMinutes: 999 })).not.toBeNull();
  });

  it('turns the form into the export query, region path included', () => {
    expect(linesQuery({ ...DEFAULT_LINE_SETTINGS, accountId: 4, protocol: 'socks5', region: ['us', 'state:ca', 'city:losangeles'], sticky: true, lifeMinutes: 30, count: 2, format: 'curl' })).toEqual({
      accountId: 4,
      protocol: 'socks5',
      country: 'us',
      state: 'ca',
      city: 'losangeles',
      sticky: '1',
      lifeMinutes: 30,
      count: 2,
      format: 'curl',
    });
  });

  it('gives the lines the server exports: sticky lines each with their own session', () => {
    const q = linesQuery({ ...DEFAULT_LINE_SETTINGS, accountId: 4, region: ['us'], sticky: true, lifeMinutes: 30, count: 2, format: 'url' });
    expect(q).not.toBeNull();
    const { accountId: _id, ...rest } = q!;
    let n = 0;
    expect(buildProxyLines(account, rest, endpoint, () => `sess000${++n}`)).toEqual([
      'http://shop_1-country-us-session-sess0001-life-30:Secret123@gw.example.net:7777',
      'http://shop_1-country-us-session-sess0002-life-30:Secret123@gw.example.net:7777',
    ]);
  });
});

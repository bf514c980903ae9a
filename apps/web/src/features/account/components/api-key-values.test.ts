import dayjs from 'dayjs';
import { describe, expect, it } from 'vitest';
import { shopCurrency } from '@/api/get-goods';
import { allowlistLines, createApiKeyRequest, curlExample } from './api-key-values';

describe('API key form values', () => {
  it('sends the expiry as the end of the chosen day, an ISO instant the contract accepts', () => {
    const day = dayjs('2030-05-17T09:00:00');
    const body = createApiKeyRequest({ name: 'x', scopes: ['read'], expiresOn: day }, 'USD');
    expect(body.expiresAt).toBe(day.endOf('day').toISOString());
    expect(body.expiresAt).toMatch(/^2030-05-1[78]T\d\d:59:59\.999Z$/);
  });

  it('leaves out what was not given: no expiry, no addresses, no cap without buy', () => {
    expect(createApiKeyRequest({ name: ' bot ', scopes: ['read', 'proxies'], expiresOn: null, allowlist: ' \n ', dailySpendCap: 40 }, 'USD')).toEqual({ name: 'bot', scopes: ['read', 'proxies'] });
  });

  it('converts the cap to the currency’s minor units', () => {
    expect(createApiKeyRequest({ name: 'b', scopes: ['buy'], dailySpendCap: 19.99 }, 'USD').dailySpendCap).toBe(1999);
    expect(createApiKeyRequest({ name: 'b', scopes: ['buy'], dailySpendCap: 500 }, 'JPY').dailySpendCap).toBe(500);
  });

  it('reads one address a line, trimmed, blank lines dropped', () => {
    expect(allowlistLines(' 203.0.113.7\r\n\n2001:db8::/32 \n')).toEqual(['203.0.113.7', '2001:db8::/32']);
    expect(allowlistLines(undefined)).toEqual([]);
  });

  it('takes the shop currency from the catalogue, null when nothing is for sale', () => {
    const staticPrice = { id: 1, regionId: 1, businessId: 1, days: 30, price: 900, currency: 'EUR' };
    expect(shopCurrency({ packages: [], staticPrices: [staticPrice] })).toBe('EUR');
    expect(shopCurrency({ packages: [], staticPrices: [] })).toBeNull();
  });

  it('builds the curl line against this console’s own origin', () => {
    expect(curlExample('https://proxy.example', 'rk_abc')).toBe("curl -H 'Authorization: Bearer rk_abc' https://proxy.example/api/traffic");
  });
});

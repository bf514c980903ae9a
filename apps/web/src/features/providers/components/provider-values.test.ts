import { providerBody, type ProviderDto } from '@resi/contract';
import dayjs from 'dayjs';
import { describe, expect, it } from 'vitest';
import { shopCurrency } from '@/api/get-goods';
import { fieldOfIssue, newProviderValues, normalizeRegions, providerInput, providerValues } from './provider-values';

const dto: ProviderDto = {
  id: 3,
  name: 'Supplier One',
  template: 'http://USER-session-{session}:****@gate.example.net:7000',
  upstreams: [{ url: 'http://user:****@198.51.100.7:8000', country: 'US', state: 'ca', city: null }],
  regions: ['US', 'CA'],
  priority: 2,
  weight: 50,
  costPerGb: { amount: 150, currency: 'USD', from: '2026-01-01' },
  costs: [{ amount: 150, currency: 'USD', from: '2026-01-01' }],
  monthlyQuotaGb: 500,
  status: 'paused',
  health: { state: 'up', successRate: 1, connectP50Ms: 10, connectP95Ms: 20, attempts: 3, lastProbeAt: null, probeLatencyMs: null, probeCountry: null, countryMismatch: false, lastError: null, since: null },
  usage: { bytesToday: 0, bytesMonth: 0 },
};

describe('provider form values', () => {
  it('sends back what it got: masked secrets, the cost in minor units from its own day', () => {
    const built = providerInput(providerValues(dto));
    expect(built).toEqual({
      ok: true,
      input: {
        name: 'Supplier One',
        template: 'http://USER-session-{session}:****@gate.example.net:7000',
        upstreams: [{ url: 'http://user:****@198.51.100.7:8000', country: 'US', state: 'ca', city: null }],
        regions: ['US', 'CA'],
        priority: 2,
        weight: 50,
        costPerGb: { amount: 150, currency: 'USD', from: '2026-01-01' },
        monthlyQuotaGb: 500,
        status: 'paused',
      },
    });
    expect(built.ok && providerBody.safeParse(built.input).success).toBe(true);
  });

  it('a new provider starts enabled, at priority 1 and weight 100, in the currency given, from today (UTC)', () => {
    const values = newProviderValues('EUR');
    expect(values).toMatchObject({ priority: 1, weight: 100, currency: 'EUR', status: 'enabled', regions: [], monthlyQuotaGb: null });
    expect(values.costFrom?.format('YYYY-MM-DD')).toBe(new Date().toISOString().slice(0, 10));
  });

  it('converts major units to minor ones by the currency, upper-cases codes and leaves no quota as null', () => {
    const built = providerInput({ ...newProviderValues('jpy'), name: ' Cheap ', upstreams: 'http://u:p@198.51.100.7:8000', cost: 120, costFrom: dayjs('2026-03-04'), regions: ['de', ' us', 'DE'] });
    expect(built.ok && built.input).toMatchObject({ name: 'Cheap', regions: ['DE', 'US'], costPerGb: { amount: 120, currency: 'JPY', from: '2026-03-04' }, monthlyQuotaGb: null });
    const usd = providerInput({ ...newProviderValues('USD'), upstreams: 'http://u:p@198.51.100.7:8000', cost: 1.5 });
    expect(usd.ok && usd.input.costPerGb.amount).toBe(150);
  });

  it('reports a bad line instead of sending no upstreams', () => {
    expect(providerInput({ ...newProviderValues('USD'), upstreams: 'http://u:p@198.51.100.7:8000\nnot a proxy' })).toEqual({ ok: false, error: { line: 2, message: 'validation.upstreamUrl' } });
  });

  it('puts a contract issue on the field it came from', () => {
    expect(fieldOfIssue(['costPerGb', 'amount'])).toBe('cost');
    expect(fieldOfIssue(['costPerGb', 'from'])).toBe('costFrom');
    expect(fieldOfIssue(['costPerGb', 'currency'])).toBe('currency');
    expect(fieldOfIssue(['template'])).toBe('template');
    expect(fieldOfIssue(['regions', 2])).toBe('regions');
  });

  it('normalises regions and finds the shop currency in the catalogue', () => {
    expect(normalizeRegions([' gb', 'GB', ''])).toEqual(['GB']);
    expect(shopCurrency({ packages: [], staticPrices: [] })).toBeNull();
    expect(shopCurrency({ packages: [], staticPrices: [{ id: 1, regionId: 1, businessId: 1, days: 30, price: 500, currency: 'EUR' }] })).toBe('EUR');
  });
});

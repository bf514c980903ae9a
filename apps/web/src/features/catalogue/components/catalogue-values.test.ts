import { packageBody as packageBodySchema, regionBody as regionBodySchema, type PackageDto } from '@resi/contract';
import { describe, expect, it } from 'vitest';
import { BYTES_PER_GB } from '@/lib/format';
import { businessBody, catalogueCurrency, packageBody, packageValues, regionBody, staticPriceBody, staticPriceValues } from './catalogue-values';

const pkg: PackageDto = {
  id: 4,
  name: { en: 'Basic 10 GB', 'zh-cn': '基础 10 GB', zh: '基礎 10 GB' },
  bytes: 10 * BYTES_PER_GB,
  price: 2500,
  currency: 'USD',
  validityDays: 30,
  badge: 'popular',
  sort: 2,
  enabled: true,
};

describe('catalogue forms: units an operator types ↔ units the API takes', () => {
  it('shows a package in GB and dollars, and sends it back unchanged in bytes and cents', () => {
    const values = packageValues(pkg);
    expect(values.gb).toBe(10);
    expect(values.price).toBe(25);
    const body = packageBody(values, 'USD');
    expect(body).toEqual({ name: pkg.name, bytes: pkg.bytes, price: 2500, validityDays: 30, badge: 'popular', sort: 2, enabled: true });
    // Exactly the strict body the server validates: no id, no currency.
    expect(packageBodySchema.safeParse(body).success).toBe(true);
  });

  it('rounds fractional GB to whole bytes and dollars to whole cents', () => {
    const body = packageBody({ ...packageValues(pkg), gb: 1.5, price: 19.999 }, 'USD');
    expect(body.bytes).toBe(1.5 * BYTES_PER_GB);
    expect(body.price).toBe(2000);
    expect(packageBody({ ...packageValues(pkg), price: 500 }, 'JPY').price).toBe(500);
  });

  it('trims names and normalises region codes; empty state and city become null', () => {
    const body = regionBody({ country: ' us ', state: ' CA ', city: '', name: { en: ' United States ', 'zh-cn': '美国', zh: '美國' }, poolSize: 10, sort: 0, enabled: true });
    expect(body).toMatchObject({ country: 'US', state: 'ca', city: null, name: { en: 'United States' } });
    expect(regionBodySchema.safeParse(body).success).toBe(true);
    expect(businessBody({ code: ' Social ', name: { en: 'a', 'zh-cn': 'b', zh: 'c' }, sort: 1, enabled: false }).code).toBe('social');
  });

  it('converts static prices both ways', () => {
    const values = staticPriceValues({ id: 1, regionId: 2, businessId: 3, days: 30, price: 450, currency: 'USD' });
    expect(values).toEqual({ regionId: 2, businessId: 3, days: 30, price: 4.5 });
    expect(staticPriceBody(values, 'USD')).toEqual({ regionId: 2, businessId: 3, days: 30, price: 450 });
  });

  it('prices new items in the catalogue currency, USD when there is none yet', () => {
    expect(catalogueCurrency([{ currency: 'EUR' }])).toBe('EUR');
    expect(catalogueCurrency([])).toBe('USD');
    expect(catalogueCurrency(undefined)).toBe('USD');
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call } from '../../../test/auth-flows';
import { seedCatalogue, signedIn } from '../../../test/commerce';
import { DIALECTS, type TestApp, createTestApp } from '../../../test/test-app';
import { DEMO_SEEDED_KEY, seedDemoCatalogue } from './demo-seed';

const GB = 1024 ** 3;
const name = (en: string) => ({ en, 'zh-cn': `${en} 简`, zh: `${en} 繁` });
const pkg = (over: Record<string, unknown> = {}) => ({ name: name('Trial 2 GB'), bytes: 2 * GB, price: 450, validityDays: 15, badge: 'new', sort: 9, ...over });

describe.each(DIALECTS)('catalogue on %s', (dialect) => {
  let t: TestApp;
  let admin: string;
  let customer: string;
  beforeAll(async () => {
    t = await createTestApp(dialect);
    await seedCatalogue(t);
    admin = (await signedIn(t, 'admin')).token;
    customer = (await signedIn(t)).token;
  });
  afterAll(() => t.close());

  it('shows the enabled packages in the operator order to anyone, with the static price list', async () => {
    const res = await call(t.app, 'GET', '/api/goods');
    expect(res.status).toBe(200);
    const packages = res.body.data.packages as { name: { en: string }; bytes: number; price: number; currency: string; sort: number; badge: string | null }[];
    expect(packages.map((p) => p.name.en)).toEqual(['Starter 1 GB', 'Basic 10 GB', 'Pro 50 GB', 'Business 200 GB']);
    expect(packages[1]).toMatchObject({ bytes: 10 * GB, price: 2500, currency: 'USD', badge: 'popular' });
    expect(res.body.data.staticPrices.length).toBe(12);
    expect(res.body.data.staticPrices[0]).toMatchObject({ days: 30, price: 500, currency: 'USD' });
  });

  it('answers regions, static regions and business lines from the store', async () => {
    const regions = await call(t.app, 'GET', '/api/region');
    expect(regions.body.data.items).toContainEqual(expect.objectContaining({ country: 'US', state: 'ca', city: 'losangeles', name: expect.objectContaining({ zh: '洛杉磯' }) }));
    const statics = await call(t.app, 'GET', '/api/static-region');
    expect(statics.body.data.items.map((r: { country: string }) => r.country)).toEqual(['US', 'JP', 'SG']);
    const business = await call(t.app, 'GET', '/api/business');
    expect(business.body.data.items.map((b: { code: string }) => b.code)).toEqual(['ecommerce', 'social']);
  });

  it('lets an admin create, edit, disable and delete a package, each leaving an audit row', async () => {
    const created = await call(t.app, 'POST', '/api/manage/goods', { token: admin, body: pkg() });
    expect(created.status).toBe(200);
    const id = created.body.data.id as number;
    expect(created.body.data).toMatchObject({ bytes: 2 * GB, price: 450, currency: 'USD', badge: 'new', enabled: true });
    expect((await call(t.app, 'GET', '/api/goods')).body.data.packages.map((p: { id: number }) => p.id)).toContain(id);

    const edited = await call(t.app, 'PUT', `/api/manage/goods/${id}`, { token: admin, body: pkg({ price: 500, enabled: false }) });
    expect(edited.body.data).toMatchObject({ price: 500, enabled: false });
    expect((await call(t.app, 'GET', '/api/goods')).body.data.packages.map((p: { id: number }) => p.id)).not.toContain(id);
    const all = await call(t.app, 'GET', '/api/manage/goods', { token: admin });
    expect(all.body.data.items.find((p: { id: number }) => p.id === id)).toMatchObject({ enabled: false });

    expect((await call(t.app, 'DELETE', `/api/manage/goods/${id}`, { token: admin })).status).toBe(200);
    expect((await call(t.app, 'DELETE', `/api/manage/goods/${id}`, { token: admin })).status).toBe(404);

    const audit = await t.db.db.selectFrom('audit_logs').selectAll().where('target', '=', `goods:${id}`).orderBy('id').execute();
    expect(audit.map((a) => a.action)).toEqual(['goods.create', 'goods.update', 'goods.delete']);
    expect(JSON.parse(audit[1]!.before!)).toMatchObject({ price: 450 });
    expect(JSON.parse(audit[1]!.after!)).toMatchObject({ price: 500 });
  });

  it('refuses bad package input with a localized message and stores nothing', async () => {
    const before = await t.db.db.selectFrom('packages').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
    for (const body of [pkg({ price: 0 }), pkg({ bytes: 10 }), pkg({ validityDays: 0 }), pkg({ badge: 'hot' }), pkg({ extra: 1 }), pkg({ name: { en: 'x', 'zh-cn': '', zh: 'y' } })]) {
      const res = await call(t.app, 'POST', '/api/manage/goods', { token: admin, body, lang: 'zh-cn' });
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.code).toBe('VALIDATION_FAILED');
      expect(res.body.message).toMatch(/[\u4e00-\u9fff]/);
    }
    const after = await t.db.db.selectFrom('packages').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
    expect(Number(after.n)).toBe(Number(before.n));
  });

  it('refuses a duplicate region or business code with 409', async () => {
    const region = { country: 'us', state: 'CA', city: 'LosAngeles', name: name('LA again') };
    const res = await call(t.app, 'POST', '/api/manage/region', { token: admin, body: region, lang: 'zh' });
    expect(res.status).toBe(409);
    expect(res.body.code).toBe('CATALOGUE_DUPLICATE');
    expect(res.body.message).toBe('已存在相同識別的項目。');
    const biz = await call(t.app, 'POST', '/api/manage/business', { token: admin, body: { code: 'ecommerce', name: name('Shop') } });
    expect(biz.status).toBe(409);
    const okRegion = await call(t.app, 'POST', '/api/manage/region', { token: admin, body: { country: 'fr', name: name('France'), poolSize: 1200 } });
    expect(okRegion.body.data).toMatchObject({ country: 'FR', state: null, city: null, poolSize: 1200 });
  });

  it('lets an admin create, edit and delete a static region, each leaving an audit row', async () => {
    const created = await call(t.app, 'POST', '/api/manage/static-region', { token: admin, body: { country: 'de', city: 'frankfurt', name: name('Frankfurt'), sort: 5 } });
    expect(created.status).toBe(200);
    const id = created.body.data.id as number;
    expect(created.body.data).toMatchObject({ country: 'DE', city: 'frankfurt', sort: 5, enabled: true, name: { en: 'Frankfurt' } });
    expect((await call(t.app, 'GET', '/api/static-region')).body.data.items.map((r: { id: number }) => r.id)).toContain(id);

    const edited = await call(t.app, 'PUT', `/api/manage/static-region/${id}`, { token: admin, body: { country: 'DE', city: 'berlin', name: name('Berlin'), enabled: false } });
    expect(edited.status).toBe(200);
    expect(edited.body.data).toMatchObject({ city: 'berlin', enabled: false, name: { en: 'Berlin' } });
    const dup = await call(t.app, 'POST', '/api/manage/static-region', { token: admin, body: { country: 'DE', city: 'berlin', name: name('Berlin 2') } });
    expect(dup.status).toBe(409);

    expect((await call(t.app, 'DELETE', `/api/manage/static-region/${id}`, { token: admin })).status).toBe(200);
    expect((await call(t.app, 'PUT', `/api/manage/static-region/${id}`, { token: admin, body: { country: 'DE', name: name('Gone') } })).status).toBe(404);
    const audit = await t.db.db.selectFrom('audit_logs').selectAll().where('target', '=', `static-region:${id}`).orderBy('id').execute();
    expect(audit.map((a) => a.action)).toEqual(['static-region.create', 'static-region.update', 'static-region.delete']);
    expect(JSON.parse(audit[1]!.before!)).toMatchObject({ city: 'frankfurt' });
    expect(JSON.parse(audit[1]!.after!)).toMatchObject({ city: 'berlin' });
  });

  it('lets an admin create, edit and delete a static price; deleting its region removes it', async () => {
    const region = (await call(t.app, 'POST', '/api/manage/static-region', { token: admin, body: { country: 'FR', city: 'paris', name: name('Paris') } })).body.data.id as number;
    const business = (await call(t.app, 'POST', '/api/manage/business', { token: admin, body: { code: 'streaming', name: name('Streaming') } })).body.data.id as number;
    const created = await call(t.app, 'POST', '/api/manage/static-price', { token: admin, body: { regionId: region, businessId: business, days: 30, price: 700 } });
    expect(created.status).toBe(200);
    const id = created.body.data.id as number;
    expect(created.body.data).toEqual({ id, regionId: region, businessId: business, days: 30, price: 700, currency: 'USD' });

    const again = await call(t.app, 'POST', '/api/manage/static-price', { token: admin, body: { regionId: region, businessId: business, days: 30, price: 800 } });
    expect(again.status).toBe(409);
    const edited = await call(t.app, 'PUT', `/api/manage/static-price/${id}`, { token: admin, body: { regionId: region, businessId: business, days: 60, price: 1300 } });
    expect(edited.body.data).toMatchObject({ days: 60, price: 1300 });
    expect((await call(t.app, 'GET', '/api/goods')).body.data.staticPrices).toContainEqual(expect.objectContaining({ id, days: 60, price: 1300 }));

    expect((await call(t.app, 'DELETE', `/api/manage/static-price/${id}`, { token: admin })).status).toBe(200);
    expect((await call(t.app, 'DELETE', `/api/manage/static-price/${id}`, { token: admin })).status).toBe(404);
    const audit = await t.db.db.selectFrom('audit_logs').selectAll().where('target', '=', `static-price:${id}`).orderBy('id').execute();
    expect(audit.map((a) => a.action)).toEqual(['static-price.create', 'static-price.update', 'static-price.delete']);
    expect(JSON.parse(audit[1]!.before!)).toMatchObject({ days: 30, price: 700 });

    const kept = (await call(t.app, 'POST', '/api/manage/static-price', { token: admin, body: { regionId: region, businessId: business, days: 30, price: 700 } })).body.data.id as number;
    expect((await call(t.app, 'DELETE', `/api/manage/static-region/${region}`, { token: admin })).status).toBe(200);
    expect(await t.db.db.selectFrom('static_prices').select('id').where('id', '=', kept).executeTakeFirst()).toBeUndefined();
  });

  it('answers 404 with a localized message for a static price of an unknown region or business line, and stores nothing', async () => {
    const region = (await call(t.app, 'GET', '/api/static-region')).body.data.items[0].id as number;
    const business = (await call(t.app, 'GET', '/api/business')).body.data.items[0].id as number;
    const price = (await call(t.app, 'POST', '/api/manage/static-price', { token: admin, body: { regionId: region, businessId: business, days: 7, price: 200 } })).body.data;
    const before = await t.db.db.selectFrom('static_prices').selectAll().orderBy('id').execute();
    for (const body of [
      { regionId: 999_999, businessId: business, days: 14, price: 300 },
      { regionId: region, businessId: 999_999, days: 14, price: 300 },
    ]) {
      const res = await call(t.app, 'POST', '/api/manage/static-price', { token: admin, body, lang: 'zh' });
      expect(res.status, JSON.stringify(body)).toBe(404);
      expect(res.body).toEqual({ code: 'NOT_FOUND', message: '找不到。' });
      const upd = await call(t.app, 'PUT', `/api/manage/static-price/${price.id}`, { token: admin, body, lang: 'zh-cn' });
      expect(upd.status, JSON.stringify(body)).toBe(404);
      expect(upd.body).toEqual({ code: 'NOT_FOUND', message: '未找到。' });
    }
    expect(await t.db.db.selectFrom('static_prices').selectAll().orderBy('id').execute()).toEqual(before);
  });

  it('keeps the catalogue admin routes to admins', async () => {
    for (const [method, url] of [
      ['GET', '/api/manage/goods'],
      ['POST', '/api/manage/goods'],
      ['PUT', '/api/manage/region/1'],
      ['DELETE', '/api/manage/business/1'],
      ['GET', '/api/manage/static-price'],
    ] as const) {
      expect((await call(t.app, method, url, { token: customer, body: method === 'GET' || method === 'DELETE' ? undefined : pkg() })).status).toBe(403);
      expect((await call(t.app, method, url, { body: method === 'GET' || method === 'DELETE' ? undefined : pkg() })).status).toBe(401);
    }
  });
});

describe.each(DIALECTS)('demo catalogue seeding on %s', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(dialect);
  });
  afterAll(() => t.close());
  const count = async (table: 'packages' | 'regions' | 'static_regions' | 'businesses' | 'static_prices') =>
    Number((await t.db.db.selectFrom(table).select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n);

  it('seeds once per store: deleted demo packages stay deleted and a kept demo region does not crash the next start', async () => {
    expect(await seedDemoCatalogue(t.db.db, t.clock, 'USD')).toBe(true);
    expect(await count('packages')).toBe(4);
    const regions = await count('regions');
    expect(await t.db.db.selectFrom('settings').select('key').where('key', '=', DEMO_SEEDED_KEY).executeTakeFirst()).toBeDefined();

    await t.db.db.deleteFrom('packages').execute();
    expect(await seedDemoCatalogue(t.db.db, t.clock, 'USD')).toBe(false);
    expect(await count('packages')).toBe(0);
    expect(await count('regions')).toBe(regions);
    expect(await count('static_prices')).toBe(12);
  });

  it('gives a store that already has a catalogue (no marker yet) the marker and no demo', async () => {
    await t.db.db.deleteFrom('settings').where('key', '=', DEMO_SEEDED_KEY).execute();
    await t.db.db.deleteFrom('regions').execute();
    await t.db.db.deleteFrom('static_regions').execute();
    const businesses = await count('businesses');
    expect(businesses).toBe(2);
    expect(await seedDemoCatalogue(t.db.db, t.clock, 'USD')).toBe(false);
    expect(await count('packages')).toBe(0);
    expect(await count('regions')).toBe(0);
    expect(await count('businesses')).toBe(businesses);
    expect(await t.db.db.selectFrom('settings').select('key').where('key', '=', DEMO_SEEDED_KEY).executeTakeFirst()).toBeDefined();
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call } from '../../../test/auth-flows';
import { seedCatalogue, signedIn } from '../../../test/commerce';
import { DIALECTS, type TestApp, createTestApp } from '../../../test/test-app';
import { text } from '../../../test/i18n';

describe.each(DIALECTS)('static inventory on %s', (dialect) => {
  let t: TestApp;
  let admin: string;
  let customer: string;
  let regionId: number;
  let otherRegionId: number;
  let businesses: number[];
  beforeAll(async () => {
    t = await createTestApp(dialect);
    await seedCatalogue(t);
    admin = (await signedIn(t, 'admin')).token;
    customer = (await signedIn(t, 'customer')).token;
    const regions = (await call(t.app, 'GET', '/api/static-region')).body.data.items as { id: number }[];
    [regionId, otherRegionId] = regions.map((r) => r.id) as [number, number];
    businesses = ((await call(t.app, 'GET', '/api/business')).body.data.items as { id: number }[]).map((b) => b.id);
  });
  afterAll(() => t.close());

  const importLines = (lines: string, extra: Record<string, unknown> = {}, lang = 'en') =>
    call(t.app, 'POST', '/api/manage/static-inventory', { token: admin, lang, body: { regionId, lines, ...extra } });

  it('imports good lines, reports duplicates and bad lines with localized reasons, and seals the upstream password', async () => {
    const res = await importLines(
      ['http://isp1:s3cret-pass@203.0.113.10:8000', '203.0.113.11:3128:isp1:other-secret', 'ftp://x:y@203.0.113.12:21', 'http://isp1:s3cret-pass@203.0.113.10:8000', 'socks5://isp2:pw@gw.isp.example:1080 203.0.113.13'].join('\n'),
      { businessIds: [businesses[0]], isp: 'Example Telecom', costPerMonth: 450 },
      'zh-cn',
    );
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ created: 3, duplicate: 1, invalid: 1 });
    expect(res.body.data.results.map((r: { line: number; status: string; ip: string | null; reason: string | null }) => [r.line, r.status, r.ip, r.reason])).toEqual([
      [1, 'created', '203.0.113.10', null],
      [2, 'created', '203.0.113.11', null],
      [3, 'invalid', null, text('zh-cn', 'staticImport.scheme')],
      [4, 'duplicate', '203.0.113.10', null],
      [5, 'created', '203.0.113.13', null],
    ]);
    expect(res.body.message).toBe(text('zh-cn', 'staticImport.summary', { created: 3, duplicate: 1, invalid: 1 }));

    const list = await call(t.app, 'GET', `/api/manage/static-inventory?regionId=${regionId}&pageSize=10`, { token: admin });
    const byIp = new Map((list.body.data.items as { ip: string }[]).map((i) => [i.ip, i]));
    expect(byIp.get('203.0.113.10')).toMatchObject({ upstream: 'http://isp1:••••@203.0.113.10:8000', status: 'free', isp: 'Example Telecom', businessIds: [businesses[0]], costPerMonth: 450, currency: 'USD' });
    expect(byIp.get('203.0.113.13')).toMatchObject({ upstream: 'socks5://isp2:••••@gw.isp.example:1080', protocol: 'socks5' });
    expect(JSON.stringify(list.body)).not.toContain('s3cret');
    const stored = await t.db.db.selectFrom('static_inventory').select('password_sealed').where('exit_ip', '=', '203.0.113.10').executeTakeFirstOrThrow();
    expect(stored.password_sealed).not.toContain('s3cret');
    const audit = await t.db.db.selectFrom('audit_logs').select(['action', 'after']).where('action', '=', 'static.import').execute();
    expect(audit).toHaveLength(1);
    expect(JSON.stringify(audit)).not.toContain('s3cret');

    // Importing the same address again, in another region, is a duplicate and changes nothing.
    const again = await call(t.app, 'POST', '/api/manage/static-inventory', { token: admin, body: { regionId: otherRegionId, lines: '203.0.113.11:3128:x:y' } });
    expect(again.body.data).toMatchObject({ created: 0, duplicate: 1, invalid: 0 });
  });

  it('counts stock per region and business line: a row with no lines serves every line', async () => {
    await importLines('203.0.113.20:3128:a:b\n203.0.113.21:3128:a:b');
    const regions = (await call(t.app, 'GET', '/api/static-region')).body.data.items as { id: number; stock: { businessId: number; available: number }[] }[];
    const stock = regions.find((r) => r.id === regionId)!.stock;
    const available = (b: number) => stock.find((s) => s.businessId === b)?.available ?? 0;
    // Three rows limited to the first line (from the test above) and two for all lines.
    expect(available(businesses[0]!)).toBe(5);
    for (const b of businesses.slice(1)) expect(available(b)).toBe(2);
    expect(regions.find((r) => r.id === otherRegionId)!.stock).toEqual([]);

    const board = (await call(t.app, 'GET', '/api/manage/static-inventory/board', { token: admin })).body.data.items;
    expect(board).toEqual([
      { regionId, businessId: null, counts: { free: 2, reserved: 0, allocated: 0, grace: 0, cooldown: 0, retired: 0 } },
      { regionId, businessId: businesses[0], counts: { free: 3, reserved: 0, allocated: 0, grace: 0, cooldown: 0, retired: 0 } },
    ]);
    const filtered = await call(t.app, 'GET', `/api/manage/static-inventory?businessId=${businesses[1]}&ip=203.0.113.2`, { token: admin });
    expect(filtered.body.data.items.map((i: { ip: string }) => i.ip).sort()).toEqual(['203.0.113.20', '203.0.113.21']);
  });

  it('edits and retires a row, with its history, and retired stock is not sold', async () => {
    const list = await call(t.app, 'GET', '/api/manage/static-inventory?ip=203.0.113.21', { token: admin });
    const id = list.body.data.items[0].id as number;
    // Imported without a monthly cost: 0.
    expect(list.body.data.items[0].costPerMonth).toBe(0);
    const edited = await call(t.app, 'PUT', `/api/manage/static-inventory/${id}`, { token: admin, body: { regionId, businessIds: [businesses[1]], isp: 'Other ISP', remark: 'rack 4', costPerMonth: 1999 } });
    expect(edited.body.data).toMatchObject({ businessIds: [businesses[1]], isp: 'Other ISP', remark: 'rack 4', status: 'free', costPerMonth: 1999 });
    // An edit without the cost (a program written before it existed) keeps it.
    const kept = await call(t.app, 'PUT', `/api/manage/static-inventory/${id}`, { token: admin, body: { regionId, businessIds: [businesses[1]], isp: 'Other ISP', remark: 'rack 5' } });
    expect(kept.body.data).toMatchObject({ remark: 'rack 5', costPerMonth: 1999 });
    const stored = await t.db.db.selectFrom('static_inventory').select('cost_month').where('id', '=', id).executeTakeFirstOrThrow();
    expect(Number(stored.cost_month)).toBe(1999);
    const retired = await call(t.app, 'DELETE', `/api/manage/static-inventory/${id}`, { token: admin, body: { reason: 'blocked by the provider' } });
    expect(retired.body.data.status).toBe('retired');
    expect((await call(t.app, 'DELETE', `/api/manage/static-inventory/${id}`, { token: admin })).status).toBe(404);
    const history = (await call(t.app, 'GET', `/api/manage/static-inventory/${id}/history`, { token: admin })).body.data.items;
    expect(history.map((e: { event: string; reason: string | null }) => [e.event, e.reason])).toEqual([
      ['retired', 'blocked by the provider'],
      ['edited', null],
      ['edited', null],
      ['imported', null],
    ]);
    const regions = (await call(t.app, 'GET', '/api/static-region')).body.data.items as { id: number; stock: { businessId: number; available: number }[] }[];
    expect(regions.find((r) => r.id === regionId)!.stock.find((s) => s.businessId === businesses[1])?.available).toBe(1);
  });

  it('refuses bad input with localized errors and changes nothing', async () => {
    const before = await t.db.db.selectFrom('static_inventory').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
    const empty = await importLines('\n# nothing\n', {}, 'zh');
    expect([empty.status, empty.body.message]).toEqual([400, text('zh', 'errors.VALIDATION_FAILED', { detail: text('zh', 'staticImport.empty') })]);
    expect((await call(t.app, 'POST', '/api/manage/static-inventory', { token: admin, body: { regionId: 99999, lines: '203.0.113.30:80' } })).status).toBe(404);
    expect((await importLines('203.0.113.31:80', { businessIds: [99999] })).status).toBe(404);
    expect((await call(t.app, 'PUT', '/api/manage/static-inventory/99999', { token: admin, body: { regionId, businessIds: [] } })).status).toBe(404);
    for (const costPerMonth of [-1, 1.5, '100']) {
      const bad = await importLines('203.0.113.32:80', { costPerMonth }, 'zh-cn');
      expect([bad.status, bad.body.message]).toEqual([400, text('zh-cn', 'errors.VALIDATION_FAILED', { detail: text('zh-cn', 'validation.costPerMonth') })]);
    }
    const badQuery = await call(t.app, 'GET', '/api/manage/static-inventory?ip=1%25', { token: admin, lang: 'en' });
    expect([badQuery.status, badQuery.body.message]).toEqual([400, text('en', 'errors.VALIDATION_FAILED', { detail: text('en', 'validation.ipPrefix') })]);
    const after = await t.db.db.selectFrom('static_inventory').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
    expect(Number(after.n)).toBe(Number(before.n));
  });

  it('is for admins only', async () => {
    for (const [method, url] of [
      ['POST', '/api/manage/static-inventory'],
      ['GET', '/api/manage/static-inventory'],
      ['GET', '/api/manage/static-inventory/board'],
      ['GET', '/api/manage/static-inventory/1/history'],
      ['PUT', '/api/manage/static-inventory/1'],
      ['DELETE', '/api/manage/static-inventory/1'],
    ] as const) {
      expect((await call(t.app, method, url, { token: customer, body: method === 'GET' ? undefined : { regionId, lines: '203.0.113.40:80' } })).status).toBe(403);
      expect((await call(t.app, method, url)).status).toBe(401);
    }
  });

  it('two imports of the same addresses at once leave one row per address', async () => {
    const lines = Array.from({ length: 20 }, (_, i) => `198.51.100.${i + 1}:3128:u:p`).join('\n');
    const [a, b] = await Promise.all([importLines(lines), importLines(lines)]);
    expect([a.status, b.status]).toEqual([200, 200]);
    expect(a.body.data.created + b.body.data.created).toBe(20);
    expect(a.body.data.duplicate + b.body.data.duplicate).toBe(20);
    const rows = await t.db.db.selectFrom('static_inventory').select('exit_ip').where('exit_ip', 'like', '198.51.100.%').execute();
    expect(rows).toHaveLength(20);
  });
});

import http from 'node:http';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call } from '../../../test/auth-flows';
import { seedCatalogue, signedIn } from '../../../test/commerce';
import { HOST, basic, connectTunnel, socksConnect, startByteOrigin, startHttpOrigin } from '../../../test/gateway-fixtures';
import { PROXY_PASSWORD, gatewayCustomer } from '../../../test/store-gateway-kit';
import { DIALECTS, type TestApp, createTestApp } from '../../../test/test-app';
import { silentLog } from '../../gateway/gateway-log';
import { UpstreamExitChooser } from '../../gateway/upstream-exit-chooser';
import { chooserSupply } from '../../gateway/store/chooser-supply';
import { startStoreGateway } from '../../gateway/store/store-gateway';
import { SEAL_LABELS, SealedBox } from '../../lib/sealed-box';
import { createUser, uniqueEmail } from '../../../test/accounts';
import { SessionService } from '../auth/session-service';
import { seedDemoCatalogue } from '../catalogue/demo-seed';
import { ProviderRepository } from './provider-repository';
import { SupplySettingsRepository } from './supply-settings-repository';

const COST = (currency = 'USD') => ({ amount: 80, currency, from: '2026-01-01' });

describe.each(DIALECTS)('providers on %s', (dialect) => {
  let t: TestApp;
  let admin: string;
  let repo: ProviderRepository;
  let settings: SupplySettingsRepository;
  beforeAll(async () => {
    t = await createTestApp(dialect);
    admin = (await signedIn(t, 'admin')).token;
    repo = new ProviderRepository(t.db.db, t.clock, new SealedBox(t.config.APP_SECRET, SEAL_LABELS.upstreamPassword));
    settings = new SupplySettingsRepository(t.db.db, t.clock);
  });
  afterAll(() => t.close());

  it('keeps upstream and template passwords sealed, masked in answers and audit rows, usable by the gateway', async () => {
    const body = {
      name: 'Acme',
      template: 'http://cust-{country}-sid-{session}:TopSecret9@gate.supplier.test:7000',
      upstreams: [
        { url: 'socks5://buyer:p%40ss%3Aword%2Flong@us1.supplier.test:1080', country: 'us', state: 'CA' },
        { url: 'http://open.supplier.test:8000' },
      ],
      regions: ['us', 'de'],
      priority: 2,
      weight: 300,
      costPerGb: COST(t.config.CURRENCY),
      monthlyQuotaGb: 500,
    };
    const created = await call(t.app, 'POST', '/api/manage/providers', { token: admin, body });
    expect(created.status).toBe(200);
    const id = created.body.data.id as number;
    expect(created.body.data).toMatchObject({
      name: 'Acme',
      template: 'http://cust-{country}-sid-{session}:****@gate.supplier.test:7000',
      upstreams: [
        { url: 'socks5://buyer:****@us1.supplier.test:1080', country: 'US', state: 'ca', city: null },
        { url: 'http://open.supplier.test:8000', country: null, state: null, city: null },
      ],
      regions: ['US', 'DE'],
      priority: 2,
      weight: 300,
      costPerGb: COST(t.config.CURRENCY),
      costs: [COST(t.config.CURRENCY)],
      monthlyQuotaGb: 500,
      status: 'enabled',
      health: { state: 'up', successRate: null, attempts: 0 },
      usage: { bytesToday: 0, bytesMonth: 0 },
    });
    const raw = await t.db.db.selectFrom('upstreams').select('password_sealed').where('provider_id', '=', id).execute();
    expect(JSON.stringify(raw.map((r) => r.password_sealed))).not.toContain('word');
    const audit = await t.db.db.selectFrom('audit_logs').selectAll().where('target', '=', `provider:${id}`).execute();
    expect(JSON.stringify(audit)).not.toMatch(/p@ss|p%40ss|TopSecret9/);

    const [exit] = await repo.supply();
    expect(exit).toMatchObject({ id, template: body.template, regions: ['US', 'DE'], priority: 2, weight: 300 });
    expect(exit!.upstreams[0]).toMatchObject({ url: 'socks5://buyer:p%40ss%3Aword%2Flong@us1.supplier.test:1080', country: 'US', state: 'ca', city: null });
    expect(decodeURIComponent(new URL(exit!.upstreams[0]!.url).password)).toBe('p@ss:word/long');

    // Saved back as shown (masked), the passwords stay; a new cost from a later date keeps the old one for old usage.
    const shown = created.body.data;
    const again = await call(t.app, 'PUT', `/api/manage/providers/${id}`, {
      token: admin,
      body: { ...body, template: shown.template, upstreams: shown.upstreams, costPerGb: { ...COST(t.config.CURRENCY), amount: 65, from: '2026-06-01' }, status: 'paused' },
    });
    expect(again.status).toBe(200);
    expect(again.body.data.costs).toEqual([COST(t.config.CURRENCY), { amount: 65, currency: t.config.CURRENCY, from: '2026-06-01' }]);
    expect(await repo.supply()).toEqual([]);
    await call(t.app, 'PUT', `/api/manage/providers/${id}`, { token: admin, body: { ...body, template: shown.template, upstreams: shown.upstreams } });
    const [back] = await repo.supply();
    expect(back!.template).toBe(body.template);
    expect(decodeURIComponent(new URL(back!.upstreams[0]!.url).password)).toBe('p@ss:word/long');

    // A masked password that stands for no stored upstream cannot be kept: the line is named.
    const wrong = await call(t.app, 'PUT', `/api/manage/providers/${id}`, { token: admin, body: { ...body, upstreams: [{ url: 'http://x:****@elsewhere.test:1' }] }, lang: 'zh-cn' });
    expect([wrong.status, wrong.body.code]).toEqual([400, 'VALIDATION_FAILED']);
    expect(wrong.body.message).toContain('第 1 行');

    expect((await call(t.app, 'DELETE', `/api/manage/providers/${id}`, { token: admin, body: {} })).status).toBe(200);
    expect((await call(t.app, 'DELETE', `/api/manage/providers/${id}`, { token: admin, body: {} })).status).toBe(404);
    expect((await call(t.app, 'PUT', `/api/manage/providers/${id}`, { token: admin, body })).status).toBe(404);
    // Deleted: out of the list and of the gateway's supply, its row kept for past margins.
    expect((await call(t.app, 'GET', '/api/manage/providers', { token: admin })).body.data.items.map((p: { id: number }) => p.id)).not.toContain(id);
    expect(await repo.supply()).toEqual([]);
    expect(await t.db.db.selectFrom('providers').select('name').where('id', '=', id).executeTakeFirst()).toEqual({ name: 'Acme' });
  });

  it('refuses bad providers with localized messages, changing nothing', async () => {
    const ok = { name: 'P', upstreams: [{ url: 'http://a.test:80' }], costPerGb: COST(t.config.CURRENCY) };
    const before = await t.db.db.selectFrom('providers').select(sql<number>`count(*)`.as('n')).executeTakeFirstOrThrow();
    for (const body of [
      { ...ok, upstreams: [{ url: 'ftp://a.test:21' }] },
      { ...ok, upstreams: [{ url: 'http://a.test' }] },
      { ...ok, upstreams: [{ url: 'http://a.test:80', country: 'USA' }] },
      { ...ok, upstreams: [] },
      { ...ok, name: '' },
      { ...ok, priority: 0 },
      { ...ok, weight: 1001 },
      { ...ok, regions: ['USA'] },
      { ...ok, monthlyQuotaGb: -1 },
      { ...ok, costPerGb: { amount: -1, currency: t.config.CURRENCY, from: '2026-01-01' } },
      { ...ok, costPerGb: { amount: 10, currency: t.config.CURRENCY === 'EUR' ? 'GBP' : 'EUR', from: '2026-01-01' } },
      { ...ok, costPerGb: { amount: 10, currency: t.config.CURRENCY, from: '2026-13-01' } },
      { ...ok, template: 'http://u-{planet}:p@h:1' },
      { ...ok, status: 'broken' },
    ]) {
      const res = await call(t.app, 'POST', '/api/manage/providers', { token: admin, body, lang: 'zh-cn' });
      expect([res.status, res.body.code], JSON.stringify(body)).toEqual([400, 'VALIDATION_FAILED']);
      expect(res.body.message).toMatch(/[\u4e00-\u9fff]/);
    }
    const after = await t.db.db.selectFrom('providers').select(sql<number>`count(*)`.as('n')).executeTakeFirstOrThrow();
    expect(Number(after.n)).toBe(Number(before.n));
  });

  it('two saves of one provider at once leave one list, never both', async () => {
    const body = (host: string, n: number) => ({ name: host, upstreams: Array.from({ length: n }, (_, i) => ({ url: `http://${host}:${8000 + i}` })), costPerGb: COST(t.config.CURRENCY) });
    const created = await call(t.app, 'POST', '/api/manage/providers', { token: admin, body: body('first.test', 1) });
    const id = created.body.data.id as number;
    const saves = await Promise.all(['a.test', 'b.test', 'c.test', 'd.test'].map((host, i) => call(t.app, 'PUT', `/api/manage/providers/${id}`, { token: admin, body: body(host, 3 + i) })));
    expect(saves.map((r) => r.status)).toEqual([200, 200, 200, 200]);
    const hosts = await t.db.db.selectFrom('upstreams').select('host').where('provider_id', '=', id).execute();
    expect(new Set(hosts.map((h) => h.host)).size).toBe(1);
    expect(hosts.length).toBe(3 + ['a.test', 'b.test', 'c.test', 'd.test'].indexOf(hosts[0]!.host));
  });

  it('saves the supply settings: direct egress and the active probe', async () => {
    const saved = await call(t.app, 'POST', '/api/manage/supply', { token: admin, body: { directEgress: true, checkUrl: 'http://check.test/json', probeSeconds: 30 } });
    expect(saved.status).toBe(200);
    expect(await settings.get()).toEqual({ directEgress: true, checkUrl: 'http://check.test/json', probeSeconds: 30 });
    for (const body of [{ checkUrl: 'ftp://x' }, { probeSeconds: 5 }, { template: '' }]) {
      expect((await call(t.app, 'POST', '/api/manage/supply', { token: admin, body })).status, JSON.stringify(body)).toBe(400);
    }
  });

  it('the embedded demo exits directly, for every region it sells', async () => {
    const demo = await createTestApp(dialect);
    const web = await startHttpOrigin();
    const origin = await startByteOrigin();
    try {
      await seedCatalogue(demo);
      expect(await new SupplySettingsRepository(demo.db.db, demo.clock).get()).toEqual({ directEgress: true, checkUrl: '', probeSeconds: 60 });

      // Get Proxy offers the demo's regions; each line must work as shown (through the gateway host).
      const demoAdmin = (await signedIn(demo, 'admin')).token;
      const c = await gatewayCustomer(demo, demoAdmin, [[64 * 1024 ** 2, 30]]);
      const regions = await demo.db.db.selectFrom('regions').select(['country', 'state', 'city']).where('enabled', '=', 1).execute();
      expect(regions.map((x) => x.country)).toEqual(expect.arrayContaining(['US', 'GB', 'DE', 'JP', 'SG']));
      const gw = await startStoreGateway({ db: demo.db.db, clock: demo.clock, appSecret: demo.config.APP_SECRET, host: HOST, httpPort: 0, socksPort: 0, allowPrivateDestinations: true, log: silentLog });
      try {
        for (const region of regions) {
          const user = [c.username, `country-${region.country.toLowerCase()}`, region.state && `state-${region.state}`, region.city && `city-${region.city}`].filter(Boolean).join('-');
          const tun = await connectTunnel(gw.gateway.httpPort, `${HOST}:${origin.port}`, basic(`${user}-session-s1`, PROXY_PASSWORD));
          expect(tun.status, user).toBe(200);
          tun.socket.destroy();
          const s = await socksConnect(gw.gateway.socksPort, user, PROXY_PASSWORD, HOST, origin.port);
          expect(s.rep, user).toBe(0);
          s.socket.destroy();
        }
        const plain = await fetchVia(gw.gateway.httpPort, `http://${HOST}:${web.port}/bytes/100`, `${c.username}-country-jp`);
        expect(plain).toEqual({ status: 200, length: 100 });
      } finally {
        await gw.stop();
      }
    } finally {
      await Promise.all([web.close(), origin.close()]);
      await demo.close();
    }
  });

  it('is for admins only', async () => {
    const { token } = await signedIn(t);
    expect((await call(t.app, 'GET', '/api/manage/providers', { token })).status).toBe(403);
    expect((await call(t.app, 'POST', '/api/manage/providers', { token, body: {} })).status).toBe(403);
    expect((await call(t.app, 'GET', '/api/manage/supply', { token })).status).toBe(403);
    expect((await call(t.app, 'POST', '/api/manage/supply', { body: { directEgress: true } })).status).toBe(401);
  });
});

describe.each(DIALECTS)('direct egress in production on %s', (dialect) => {
  let t: TestApp;
  let admin: string;
  let repo: SupplySettingsRepository;
  beforeAll(async () => {
    // Production refuses test-only switches, so this app has no captcha answer.
    t = await createTestApp(dialect, { NODE_ENV: 'production', CAPTCHA_TEST_ANSWER: '' });
    admin = await sessionOf(t, 'admin');
    repo = new SupplySettingsRepository(t.db.db, t.clock);
  });
  afterAll(() => t.close());

  it('cannot be turned on through the API, with a localized reason', async () => {
    for (const [lang, text] of [
      ['en', /not available in production/],
      ['zh-cn', /直连出口仅供演示/],
      ['zh', /直連出口僅供示範/],
    ] as const) {
      const res = await call(t.app, 'POST', '/api/manage/supply', { token: admin, body: { directEgress: true }, lang });
      expect([res.status, res.body.code], lang).toEqual([400, 'DIRECT_EGRESS_UNAVAILABLE']);
      expect(res.body.message, lang).toMatch(text);
    }
    expect((await repo.get()).directEgress).toBe(false);
    const off = await call(t.app, 'POST', '/api/manage/supply', { token: admin, body: { directEgress: false } });
    expect(off.status).toBe(200);
  });

  it('is not seeded by the demo data, and a stored one is shown off and ignored by the gateway', async () => {
    await t.db.db.deleteFrom('settings').execute();
    expect(await seedDemoCatalogue(t.db.db, t.clock, 'USD', true)).toBe(true);
    expect(await repo.get()).toEqual({ directEgress: false, checkUrl: '', probeSeconds: 60 });

    // A store carried over from a demo may still hold it: in force it is off.
    await repo.save({ directEgress: true, checkUrl: '', probeSeconds: 60 });
    const shown = await call(t.app, 'GET', '/api/manage/supply', { token: admin });
    expect(shown.body.data.directEgress).toBe(false);
    const params = { account: 'a', country: null, state: null, city: null, session: null, lifeMinutes: 10 };
    expect(new UpstreamExitChooser(chooserSupply([], await repo.get(), true)).choose(params, 1)).toEqual({ refusal: 'NO_SUPPLY' });
    expect(new UpstreamExitChooser(chooserSupply([], await repo.get(), false)).choose(params, 1)).toEqual({ kind: 'direct', id: 'direct' });

    const customer = await createUser(t, { email: uniqueEmail(), password: 'Secret123' });
    const recharge = await call(t.app, 'POST', '/api/manage/recharge', { token: admin, body: { userId: customer.id, bytes: 64 * 1024 ** 2, validityDays: 30, note: 'test' } });
    expect(recharge.status).toBe(200);
    const c = { username: `prod${customer.id}` };
    const acct = await call(t.app, 'POST', '/api/proxy/dynamic', { token: await sessionOf(t, customer.id), body: { username: c.username, password: PROXY_PASSWORD } });
    expect(acct.status).toBe(200);
    const warnings: string[] = [];
    const log = { ...silentLog, warn: (_: object, msg: string) => void warnings.push(msg) };
    const gw = await startStoreGateway({ db: t.db.db, clock: t.clock, appSecret: t.config.APP_SECRET, host: HOST, httpPort: 0, socksPort: 0, log, production: true });
    try {
      const tun = await connectTunnel(gw.gateway.httpPort, `${HOST}:9`, basic(c.username, PROXY_PASSWORD));
      expect([tun.status, tun.headers['x-gateway-reason']]).toEqual([502, 'NO_SUPPLY']);
      tun.socket.destroy();
      expect(warnings).toEqual(['gateway: direct egress is a demo setting and is ignored in production']);
    } finally {
      await gw.stop();
    }
  });
});

/** A session token without logging in (production asks a captcha that tests cannot answer). */
async function sessionOf(t: TestApp, who: 'admin' | number): Promise<string> {
  const id = who === 'admin' ? (await createUser(t, { email: uniqueEmail('admin'), password: 'Secret123', role: 'admin' })).id : who;
  return new SessionService(t.db.db, t.clock).create(id, { ip: null, userAgent: null });
}

/** A plain GET through the HTTP proxy port, as curl -x does. */
async function fetchVia(proxyPort: number, url: string, username: string): Promise<{ status: number; length: number }> {
  return new Promise((resolve, reject) => {
    http
      .get({ host: HOST, port: proxyPort, path: url, agent: false, headers: { 'proxy-authorization': basic(username, PROXY_PASSWORD) } }, (res) => {
        let length = 0;
        res.on('data', (c: Buffer) => (length += c.length));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, length }));
      })
      .on('error', reject);
  });
}

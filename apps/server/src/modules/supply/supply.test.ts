import http from 'node:http';
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
import { SupplyRepository } from './supply-repository';

describe.each(DIALECTS)('upstream supply on %s', (dialect) => {
  let t: TestApp;
  let admin: string;
  let repo: SupplyRepository;
  beforeAll(async () => {
    t = await createTestApp(dialect);
    admin = (await signedIn(t, 'admin')).token;
    repo = new SupplyRepository(t.db.db, t.clock, new SealedBox(t.config.APP_SECRET, SEAL_LABELS.upstreamPassword));
  });
  afterAll(() => t.close());

  it('keeps upstream passwords sealed, masked in answers and audit rows, usable by the gateway', async () => {
    const body = { protocol: 'socks5', host: 'us1.supplier.test', port: 1080, username: 'buyer', password: 'p@ss:word/long', country: 'us', state: 'CA', city: null };
    const created = await call(t.app, 'POST', '/api/manage/upstream', { token: admin, body });
    expect(created.status).toBe(200);
    expect(created.body.data).toMatchObject({ protocol: 'socks5', host: 'us1.supplier.test', port: 1080, country: 'US', state: 'ca', city: null, password: '••••long', enabled: true });
    const id = created.body.data.id as number;
    const raw = await t.db.db.selectFrom('upstreams').select('password_sealed').where('id', '=', id).executeTakeFirstOrThrow();
    expect(raw.password_sealed).not.toContain('word');
    const audit = await t.db.db.selectFrom('audit_logs').selectAll().where('target', '=', `upstream:${id}`).execute();
    expect(JSON.stringify(audit)).not.toContain('p@ss');

    const [exit] = await repo.enabledUpstreams();
    expect(exit).toEqual({ id: `upstream-${id}`, url: 'socks5://buyer:p%40ss%3Aword%2Flong@us1.supplier.test:1080', country: 'US', state: 'ca', city: null });
    expect(decodeURIComponent(new URL(exit!.url).password)).toBe('p@ss:word/long');

    // Saving without a password keeps it; disabling removes the upstream from the gateway's list.
    const { password: _omit, ...rest } = body;
    await call(t.app, 'PUT', `/api/manage/upstream/${id}`, { token: admin, body: { ...rest, enabled: false } });
    expect(await repo.enabledUpstreams()).toEqual([]);
    const again = await call(t.app, 'PUT', `/api/manage/upstream/${id}`, { token: admin, body: rest });
    expect(again.body.data.password).toBe('••••long');
    expect((await call(t.app, 'DELETE', `/api/manage/upstream/${id}`, { token: admin })).status).toBe(200);
    expect((await call(t.app, 'DELETE', `/api/manage/upstream/${id}`, { token: admin })).status).toBe(404);
  });

  it('refuses bad upstreams with localized messages', async () => {
    for (const body of [
      { protocol: 'ftp', host: 'a', port: 1 },
      { protocol: 'http', host: '', port: 80 },
      { protocol: 'http', host: 'a.test', port: 70000 },
      { protocol: 'http', host: 'a.test', port: 80, country: 'USA' },
      { protocol: 'http', host: 'a.test', port: 80, weight: 3 },
    ]) {
      const res = await call(t.app, 'POST', '/api/manage/upstream', { token: admin, body, lang: 'zh-cn' });
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.message).toMatch(/[\u4e00-\u9fff]/);
    }
  });

  it('shows the provider template with its password masked and keeps it when saved back masked', async () => {
    const template = 'http://cust-{country}-sid-{session}:TopSecret9@gate.supplier.test:7000';
    const saved = await call(t.app, 'POST', '/api/manage/supply', { token: admin, body: { template, directEgress: false } });
    expect(saved.body.data.template).toBe('http://cust-{country}-sid-{session}:****@gate.supplier.test:7000');
    const shown = await call(t.app, 'GET', '/api/manage/supply', { token: admin });
    expect(shown.body.data).toEqual({ template: 'http://cust-{country}-sid-{session}:****@gate.supplier.test:7000', directEgress: false });
    await call(t.app, 'POST', '/api/manage/supply', { token: admin, body: { template: shown.body.data.template, directEgress: true } });
    expect(await repo.settings()).toEqual({ template, directEgress: true });
    const audit = await t.db.db.selectFrom('audit_logs').selectAll().where('target', '=', 'supply').execute();
    expect(audit).toHaveLength(2);
    expect(JSON.stringify(audit)).not.toContain('TopSecret9');
  });

  it('refuses a template the gateway could not use', async () => {
    for (const template of ['ftp://u:p@h:1', 'http://u-{planet}:p@h:1', 'not a url {country}']) {
      const res = await call(t.app, 'POST', '/api/manage/supply', { token: admin, body: { template, directEgress: false }, lang: 'zh' });
      expect(res.status, template).toBe(400);
      expect(res.body.message).toContain('供應商範本');
    }
  });

  it('the embedded demo exits directly, for every region it sells', async () => {
    const demo = await createTestApp(dialect);
    const web = await startHttpOrigin();
    const origin = await startByteOrigin();
    try {
      await seedCatalogue(demo);
      const r = new SupplyRepository(demo.db.db, demo.clock, new SealedBox(demo.config.APP_SECRET, SEAL_LABELS.upstreamPassword));
      expect(await r.settings()).toEqual({ template: '', directEgress: true });

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
    expect((await call(t.app, 'GET', '/api/manage/upstream', { token })).status).toBe(403);
    expect((await call(t.app, 'GET', '/api/manage/supply', { token })).status).toBe(403);
    expect((await call(t.app, 'POST', '/api/manage/supply', { body: { template: '', directEgress: true } })).status).toBe(401);
  });
});

describe.each(DIALECTS)('direct egress in production on %s', (dialect) => {
  let t: TestApp;
  let admin: string;
  let repo: SupplyRepository;
  beforeAll(async () => {
    // Production refuses test-only switches, so this app has no captcha answer.
    t = await createTestApp(dialect, { NODE_ENV: 'production', CAPTCHA_TEST_ANSWER: '' });
    admin = await sessionOf(t, 'admin');
    repo = new SupplyRepository(t.db.db, t.clock, new SealedBox(t.config.APP_SECRET, SEAL_LABELS.upstreamPassword));
  });
  afterAll(() => t.close());

  it('cannot be turned on through the API, with a localized reason', async () => {
    for (const [lang, text] of [
      ['en', /not available in production/],
      ['zh-cn', /直连出口仅供演示/],
      ['zh', /直連出口僅供示範/],
    ] as const) {
      const res = await call(t.app, 'POST', '/api/manage/supply', { token: admin, body: { template: '', directEgress: true }, lang });
      expect([res.status, res.body.code], lang).toEqual([400, 'DIRECT_EGRESS_UNAVAILABLE']);
      expect(res.body.message, lang).toMatch(text);
    }
    expect((await repo.settings()).directEgress).toBe(false);
    const off = await call(t.app, 'POST', '/api/manage/supply', { token: admin, body: { template: 'http://u-{session}:p@gate.supplier.test:7000', directEgress: false } });
    expect(off.status).toBe(200);
  });

  it('is not seeded by the demo data, and a stored one is shown off and ignored by the gateway', async () => {
    await t.db.db.deleteFrom('settings').execute();
    expect(await seedDemoCatalogue(t.db.db, t.clock, 'USD', true)).toBe(true);
    expect(await repo.settings()).toEqual({ template: '', directEgress: false });

    // A store carried over from a demo may still hold it: in force it is off.
    await repo.saveSettings({ template: '', directEgress: true });
    const shown = await call(t.app, 'GET', '/api/manage/supply', { token: admin });
    expect(shown.body.data.directEgress).toBe(false);
    const params = { account: 'a', country: null, state: null, city: null, session: null, lifeMinutes: 10 };
    expect(new UpstreamExitChooser(chooserSupply([], await repo.settings(), true)).choose(params, 1)).toEqual({ refusal: 'NO_SUPPLY' });
    expect(new UpstreamExitChooser(chooserSupply([], await repo.settings(), false)).choose(params, 1)).toEqual({ kind: 'direct', id: 'direct' });

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

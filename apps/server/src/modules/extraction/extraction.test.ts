import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call } from '../../../test/auth-flows';
import { seedCatalogue, signedIn } from '../../../test/commerce';
import { text } from '../../../test/i18n';
import { PROXY_PASSWORD, freePortRange, gatewayCustomer } from '../../../test/store-gateway-kit';
import { DIALECTS, type TestApp, createTestApp } from '../../../test/test-app';
import { RATE_LIMITS } from '../../http/rate-limits';

const MB = 1024 * 1024;
const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

/*
 * Extraction links (DESIGN §13, docs/gateway.md#extraction) through the real API: every format, the
 * separator, credential lines and port endpoints, and each refusal. The gateway's side of the ports is
 * gateway-allowlist.test.ts's.
 */
describe.each(DIALECTS)('extraction links on %s', (dialect) => {
  let t: TestApp;
  let admin: string;
  let range: [number, number];
  let nextIp = 1;
  /** Callers of their own (TEST-NET-2 style addresses): an address is one account's across the installation. */
  const caller = () => `198.19.${dialect === 'postgres' ? 2 : 1}.${nextIp++}`;

  beforeAll(async () => {
    range = await freePortRange(6);
    t = await createTestApp(dialect, { GATEWAY_PORT_RANGE_HTTP: range.join('-'), GATEWAY_PUBLIC_HOST: 'gw.example.test', GATEWAY_HTTP_PORT: '7777', GATEWAY_SOCKS_PORT: '7778' });
    await seedCatalogue(t);
    admin = (await signedIn(t, 'admin')).token;
  });
  afterAll(() => t.close());

  const customer = (bytes = 64 * MB) => gatewayCustomer(t, admin, bytes ? [[bytes, 30]] : []);
  const keyOf = async (c: { token: string; accountId: number }) => {
    const res = await call(t.app, 'POST', `/api/proxy/dynamic/${c.accountId}/extract-key`, { token: c.token });
    expect(res.status).toBe(200);
    return res.body.data.key as string;
  };
  const extract = (query: string, ip = caller(), headers: Record<string, string> = {}) => t.app.inject({ method: 'GET', url: `/api/extract?${query}`, remoteAddress: ip, headers });

  it('an account without an allowlist hands anyone with the key user:pass lines in the username syntax, in txt, csv and json', async () => {
    const c = await customer();
    const key = await keyOf(c);
    const listed = await call(t.app, 'GET', '/api/proxy/dynamic', { token: c.token });
    expect(listed.body.data.items[0].extractKeyPrefix).toBe(key.slice(0, 9));

    const txt = await extract(`key=${key}&num=3&country=US&city=NewYork&life=1440`);
    expect(txt.statusCode).toBe(200);
    expect(txt.headers['content-type']).toMatch(/^text\/plain/);
    expect(txt.headers['cache-control']).toBe('no-store');
    const lines = txt.body.split('\r\n');
    expect(lines).toHaveLength(3);
    for (const line of lines) expect(line).toMatch(new RegExp(`^${c.username}-country-us-city-newyork-session-[a-z0-9]{8}-life-1440:${PROXY_PASSWORD}@gw\\.example\\.test:7777$`));
    expect(new Set(lines).size).toBe(3);

    for (const [sep, joined] of [['lf', '\n'], ['cr', '\r'], ['tab', '\t'], ['%7C', '|'], ['%5Cr%5Cn', '\r\n']] as const) {
      const res = await extract(`key=${key}&num=2&protocol=socks5&sep=${sep}`);
      expect(res.body.split(joined), sep).toHaveLength(2);
      expect(res.body, sep).toMatch(/@gw\.example\.test:7778/);
    }

    const csv = await extract(`key=${key}&num=2&format=csv&sep=lf`);
    const [header, ...rows] = csv.body.split('\n');
    expect(header).toBe('host,port,protocol,username,password,country,state,city,session,expires_at');
    expect(rows).toHaveLength(2);
    expect(rows[0]).toMatch(new RegExp(`^gw\\.example\\.test,7777,http,${c.username}-session-[a-z0-9]{8}-life-10,${PROXY_PASSWORD},,,,[a-z0-9]{8},\\d{4}-`));

    const json = await extract(`key=${key}&num=1&format=json&country=de&life=30`);
    const [item] = json.json().data.items;
    expect(item).toMatchObject({ host: 'gw.example.test', port: 7777, protocol: 'http', password: PROXY_PASSWORD, country: 'DE', state: null, city: null });
    expect(item.username).toBe(`${c.username}-country-de-session-${item.session}-life-30`);
    expect(Date.parse(item.expiresAt) - t.clock.now().getTime()).toBe(30 * 60_000);
  });

  it('with an allowlist: a listed caller gets host:port port endpoints, each its own session; anyone else is refused in their language', async () => {
    const c = await customer();
    const key = await keyOf(c);
    const ip = caller();
    expect((await call(t.app, 'POST', '/api/proxy/allowlist', { token: c.token, body: { proxyAccountId: c.accountId }, ip })).status).toBe(200);

    const res = await extract(`key=${key}&num=2&format=json&life=5`, ip);
    const items = res.json().data.items as { port: number; session: string; username: string | null; line: string }[];
    expect(items.map((i) => i.line)).toEqual(items.map((i) => `gw.example.test:${i.port}`));
    expect(new Set(items.map((i) => i.port)).size).toBe(2);
    for (const i of items) {
      expect(i.username).toBeNull();
      expect(i.port).toBeGreaterThanOrEqual(range[0]);
      expect(i.port).toBeLessThanOrEqual(range[1]);
    }
    const leases = await t.db.db.selectFrom('port_leases').selectAll().where('account_id', '=', c.accountId).execute();
    expect(leases.map((l) => l.session).sort()).toEqual(items.map((i) => i.session).sort());

    const stranger = caller();
    for (const [lang, how] of [
      ['zh-cn', { query: '&lang=zh-cn', headers: {} }],
      ['zh', { query: '', headers: { 'api-lang': 'zh' } }],
    ] as const) {
      const refused = await extract(`key=${key}${how.query}`, stranger, how.headers);
      expect(refused.statusCode).toBe(403);
      expect(refused.json()).toEqual({ code: 'EXTRACT_NOT_ALLOWLISTED', message: text(lang, 'errors.EXTRACT_NOT_ALLOWLISTED', { address: stranger }) });
    }

    // Requiring the password: the listed caller gets credential lines, leasing nothing.
    await call(t.app, 'PUT', `/api/proxy/dynamic/${c.accountId}`, { token: c.token, body: { requirePassword: true } });
    expect((await extract(`key=${key}&num=1`, ip)).body).toMatch(new RegExp(`^${c.username}-session-`));
  });

  it('no free port: refused whole, leasing none', async () => {
    const c = await customer();
    const key = await keyOf(c);
    const ip = caller();
    await call(t.app, 'POST', '/api/proxy/allowlist', { token: c.token, body: { proxyAccountId: c.accountId }, ip });
    const before = await t.db.db.selectFrom('port_leases').select('port').execute();
    const res = await extract(`key=${key}&num=7`, ip, { 'api-lang': 'zh-cn' });
    expect(res.statusCode).toBe(503);
    expect(res.json()).toEqual({ code: 'EXTRACT_PORTS_BUSY', message: text('zh-cn', 'errors.EXTRACT_PORTS_BUSY') });
    expect(await t.db.db.selectFrom('port_leases').select('port').execute()).toHaveLength(before.length);
  });

  it('refuses a rotated or unknown key, no traffic, a disabled account or owner, and bad parameters', async () => {
    const c = await customer();
    const old = await keyOf(c);
    const key = await keyOf(c);
    for (const bad of [old, 'ek_00000000000000000000000000000000', 'x']) {
      const res = await extract(`key=${bad}`, caller(), { 'api-lang': 'zh' });
      expect(res.statusCode, bad).toBe(401);
      expect(res.json()).toEqual({ code: 'EXTRACT_KEY_INVALID', message: text('zh', 'errors.EXTRACT_KEY_INVALID') });
    }
    expect((await extract(`key=${key}`)).statusCode).toBe(200);

    const broke = await customer(0);
    const brokeKey = await keyOf(broke);
    const res = await extract(`key=${brokeKey}&lang=zh-cn`);
    expect(res.statusCode).toBe(402);
    expect(res.json()).toEqual({ code: 'NO_TRAFFIC', message: text('zh-cn', 'errors.NO_TRAFFIC') });

    await call(t.app, 'PUT', `/api/proxy/dynamic/${c.accountId}`, { token: c.token, body: { status: 'disabled' } });
    expect((await extract(`key=${key}`)).json().code).toBe('ACCOUNT_DISABLED');
    await call(t.app, 'PUT', `/api/proxy/dynamic/${c.accountId}`, { token: c.token, body: { status: 'active' } });
    expect((await call(t.app, 'POST', `/api/manage/user/${c.user.id}`, { token: admin, body: { status: 'disabled' } })).status).toBe(200);
    expect((await extract(`key=${key}`)).json().code).toBe('ACCOUNT_DISABLED');
    await call(t.app, 'DELETE', `/api/proxy/dynamic/${broke.accountId}`, { token: broke.token });
    expect((await extract(`key=${brokeKey}`)).json().code).toBe('EXTRACT_KEY_INVALID');

    for (const q of ['num=0', 'num=501', 'life=0', 'life=1441', 'protocol=https', 'format=xml', 'country=usa', `sep=${'x'.repeat(17)}`]) {
      const bad = await extract(`key=${key}&${q}`);
      expect(bad.statusCode, q).toBe(400);
      expect(bad.json().code, q).toBe('VALIDATION_FAILED');
    }
    expect((await extract('num=1')).json().code).toBe('VALIDATION_FAILED');
  });

  it("keys are the owner's: another customer cannot rotate one, and a key never names its account", async () => {
    const c = await customer();
    const stranger = await signedIn(t);
    expect((await call(t.app, 'POST', `/api/proxy/dynamic/${c.accountId}/extract-key`, { token: stranger.token })).status).toBe(404);
    const key = await keyOf(c);
    const rows = await t.db.db.selectFrom('extract_keys').select(['key_hash', 'prefix']).where('account_id', '=', c.accountId).execute();
    expect(rows).toHaveLength(1);
    expect(rows[0]!.key_hash).not.toContain(key.slice(3));
    expect(key.startsWith(rows[0]!.prefix)).toBe(true);
  });

  it("static IPs: one key lists the customer's active IPs; a listed caller gets each IP's own port, the same one each time", async () => {
    const regionId = (await call(t.app, 'GET', '/api/static-region')).body.data.items[0].id as number;
    const businessId = (await call(t.app, 'GET', '/api/business')).body.data.items[0].id as number;
    const lines = ['198.51.100.201', '198.51.100.202'].map((ip, i) => `127.0.0.1:${3128 + i}:up:pw ${ip}`);
    expect((await call(t.app, 'POST', '/api/manage/static-inventory', { token: admin, body: { regionId, lines: lines.join('\n') } })).status).toBe(200);
    const c = await signedIn(t);
    expect((await call(t.app, 'POST', '/api/manage/static-recharge', { token: admin, body: { userId: c.user.id, regionId, businessId, quantity: 2, days: 30, note: 'extract test' } })).status).toBe(200);
    const mine = (await call(t.app, 'GET', '/api/proxy/static', { token: c.token })).body.data.items as { id: number; username: string; password: string }[];
    expect(mine).toHaveLength(2);

    expect((await call(t.app, 'GET', '/api/proxy/static/extract-key', { token: c.token })).body.data.prefix).toBeNull();
    const key = (await call(t.app, 'POST', '/api/proxy/static/extract-key', { token: c.token })).body.data.key as string;
    expect((await call(t.app, 'GET', '/api/proxy/static/extract-key', { token: c.token })).body.data.prefix).toBe(key.slice(0, 9));

    const open = (await extract(`key=${key}&num=10&sep=lf`)).body.split('\n');
    expect(open.sort()).toEqual(mine.map((m) => `${m.username}:${m.password}@gw.example.test:7777`).sort());

    const ip = caller();
    expect((await call(t.app, 'POST', '/api/proxy/allowlist', { token: c.token, body: { staticProxyId: mine[0]!.id }, ip })).body.data.staticProxyId).toBe(mine[0]!.id);
    const first = (await extract(`key=${key}&num=10&format=json`, ip)).json().data.items as { port: number; session: string | null }[];
    expect(first).toHaveLength(2);
    expect(first.every((i) => i.session === null && i.port >= range[0] && i.port <= range[1])).toBe(true);
    const again = (await extract(`key=${key}&num=10&format=json`, ip)).json().data.items as { port: number }[];
    expect(again.map((i) => i.port)).toEqual(first.map((i) => i.port));
    expect((await extract(`key=${key}`, caller())).json().code).toBe('EXTRACT_NOT_ALLOWLISTED');
  });
});

describe.each(DIALECTS)('port leases per customer on %s', (dialect) => {
  let t: TestApp;
  let admin: string;
  let range: [number, number];
  beforeAll(async () => {
    range = await freePortRange(6);
    t = await createTestApp(dialect, { GATEWAY_PORT_RANGE_HTTP: range.join('-'), PORT_LEASES_PER_USER: '4' });
    admin = (await signedIn(t, 'admin')).token;
  });
  afterAll(() => t.close());

  it("no customer can hold the whole range: past their share, their own oldest ports are reused", async () => {
    const listedCustomer = async (ip: string) => {
      const c = await gatewayCustomer(t, admin, [[MB, 30]]);
      await call(t.app, 'POST', '/api/proxy/allowlist', { token: c.token, body: { proxyAccountId: c.accountId }, ip });
      const key = (await call(t.app, 'POST', `/api/proxy/dynamic/${c.accountId}/extract-key`, { token: c.token })).body.data.key as string;
      return (num: number) => t.app.inject({ method: 'GET', url: `/api/extract?key=${key}&num=${num}&format=json&life=60`, remoteAddress: ip });
    };
    const hog = await listedCustomer(`198.19.${dialect === 'postgres' ? 21 : 20}.1`);
    const ports = async (res: Awaited<ReturnType<typeof hog>>) => (res.json().data.items as { port: number }[]).map((i) => i.port);
    const first = await ports(await hog(4));
    t.clock.advance(1000);
    const second = await ports(await hog(3));
    // The three oldest of the first four were handed out again; the hog holds four, never six.
    expect(second).toEqual(first.slice(0, 3));
    const held = await t.db.db.selectFrom('port_leases').select('port').where('until', '>', t.clock.now().toISOString()).execute();
    expect(held).toHaveLength(4);
    const other = await listedCustomer(`198.19.${dialect === 'postgres' ? 21 : 20}.2`);
    const hogHolds = new Set([...second, first[3]!]);
    const theirs = await ports(await other(2));
    expect(theirs).toHaveLength(2);
    expect(theirs.filter((p) => hogHolds.has(p))).toEqual([]);
    const tooMany = await hog(5);
    expect(tooMany.statusCode).toBe(503);
    expect(tooMany.json().code).toBe('EXTRACT_PORTS_BUSY');
  });
});

describe('extraction limits with REDIS_URL', () => {
  const apps: TestApp[] = [];
  const rules = { ...RATE_LIMITS, extract: { ...RATE_LIMITS.extract, perKey: { max: 10, windowMs: 60_000 } } };
  beforeAll(async () => {
    // A prefix of its own per run; a minute's window, so a slow machine cannot roll the window over mid-test.
    const env = { REDIS_URL, REDIS_PREFIX: `resi-test-${randomBytes(6).toString('hex')}:` };
    const first = await createTestApp('sqlite', env, { rateLimits: rules });
    apps.push(first, await createTestApp('sqlite', env, { rateLimits: rules, sameStoreAs: first }));
    await seedCatalogue(first);
  });
  afterAll(async () => {
    for (const a of apps.reverse()) await a.close();
  });

  it('two API processes share one key\'s count; the refusal carries Retry-After and is localized', async () => {
    const admin = (await signedIn(apps[0]!, 'admin')).token;
    const c = await gatewayCustomer(apps[0]!, admin, [[MB, 30]]);
    const key = (await call(apps[0]!.app, 'POST', `/api/proxy/dynamic/${c.accountId}/extract-key`, { token: c.token })).body.data.key as string;
    let passed = 0;
    for (; passed < 30; passed++) {
      const res = await apps[passed % 2]!.app.inject({ method: 'GET', url: `/api/extract?key=${key}&lang=zh-cn`, remoteAddress: `198.19.9.${passed + 1}` });
      if (res.statusCode === 429) {
        const seconds = Number(res.headers['retry-after']);
        expect(seconds).toBeGreaterThanOrEqual(1);
        expect(res.json()).toEqual({ code: 'RATE_LIMITED', message: text('zh-cn', 'errors.RATE_LIMITED', { seconds }) });
        break;
      }
      expect(res.statusCode).toBe(200);
    }
    expect(passed).toBe(10);
    // Another key is counted on its own.
    const fresh = (await call(apps[1]!.app, 'POST', `/api/proxy/dynamic/${c.accountId}/extract-key`, { token: c.token })).body.data.key as string;
    expect((await apps[1]!.app.inject({ method: 'GET', url: `/api/extract?key=${fresh}` })).statusCode).toBe(200);
  });
});

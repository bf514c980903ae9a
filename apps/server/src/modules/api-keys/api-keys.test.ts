import type { RouteOptions } from 'fastify';
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { API_KEYS_MAX, API_KEY_SCOPES, type ApiKeyScope } from '@resi/contract';
import { call } from '../../../test/auth-flows';
import { seedCatalogue, signedIn } from '../../../test/commerce';
import { text } from '../../../test/i18n';
import { concrete, methodsOf, seenRoutes } from '../../../test/route-spy';
import { DIALECTS, type TestApp, createTestApp } from '../../../test/test-app';
import { scopeOf } from '../../shared/key-scope';

/*
 * API keys (docs/api.md#programs) through the real routes and guard: made, shown once, stored hashed, used
 * as a bearer, refused route by route by scope (the routes walked as the app registers them), revoked at once.
 */
vi.mock('fastify', (original) => import('../../../test/route-spy').then((m) => m.withRouteSpy(original)));

/** What only the guard answers: a route that lets the request through answers anything else. */
const GUARD_CODES = ['UNAUTHENTICATED', 'FORBIDDEN', 'SCOPE_REQUIRED', 'API_KEY_NOT_ALLOWED', 'API_KEY_INVALID', 'API_KEY_ADDRESS'];

describe.each(DIALECTS)('API keys on %s', (dialect) => {
  let t: TestApp;
  let routes: RouteOptions[];
  beforeAll(async () => {
    seenRoutes.length = 0;
    t = await createTestApp(dialect);
    routes = seenRoutes.filter((r) => methodsOf(r).length > 0);
    await seedCatalogue(t);
  });
  afterAll(() => t.close());

  const newKey = async (token: string, body: Record<string, unknown>) => call(t.app, 'POST', '/api/user/api-keys', { token, body });

  it('makes a key shown once and stored hashed, lists it by prefix, and takes it as a bearer', async () => {
    const { token, user } = await signedIn(t);
    const made = await newKey(token, { name: 'scraper', scopes: ['read'] });
    expect(made.status).toBe(200);
    const key = made.body.data.key as string;
    expect(key).toMatch(/^rk_[\w-]{43}$/);
    expect(made.body.data).toMatchObject({ name: 'scraper', scopes: ['read'], prefix: key.slice(0, 11), expiresAt: null, allowlist: [], dailySpendCap: null });
    const stored = await t.db.db.selectFrom('api_keys').selectAll().where('user_id', '=', user.id).execute();
    expect(stored).toHaveLength(1);
    expect(JSON.stringify(stored)).not.toContain(key.slice(11));

    const me = await call(t.app, 'GET', '/api/user', { token: key, ip: '198.51.100.7' });
    expect(me.status).toBe(200);
    expect(me.body.data.id).toBe(user.id);
    const listed = await call(t.app, 'GET', '/api/user/api-keys', { token });
    expect(listed.body.data.items).toHaveLength(1);
    expect(listed.body.data.items[0]).toMatchObject({ id: made.body.data.id, prefix: key.slice(0, 11), callsToday: 1, lastUsedIp: '198.51.100.7' });
    expect(listed.body.data.items[0]).not.toHaveProperty('key');
  });

  it('walks every route: a key without the route\u2019s scope is refused naming it, with it passes; routes without a scope refuse keys', async () => {
    const admin = await signedIn(t, 'admin');
    const full = (await newKey(admin.token, { name: 'all', scopes: [...API_KEY_SCOPES], dailySpendCap: 1_000_000 })).body.data.key as string;
    const keyWithout = new Map<ApiKeyScope, string>();
    const keyWith = new Map<ApiKeyScope, string>();
    for (const scope of API_KEY_SCOPES) {
      const others = API_KEY_SCOPES.filter((s) => s !== scope);
      keyWithout.set(scope, (await newKey(admin.token, { name: `no-${scope}`, scopes: others, dailySpendCap: others.includes('buy') ? 100 : null })).body.data.key);
      keyWith.set(scope, (await newKey(admin.token, { name: `only-${scope}`, scopes: [scope], dailySpendCap: scope === 'buy' ? 100 : null })).body.data.key);
    }
    let scoped = 0;
    let closed = 0;
    for (const route of routes) {
      if (route.config?.access === 'public' || !route.config?.access) continue;
      const scope = scopeOf(route.schema);
      for (const method of methodsOf(route)) {
        const url = concrete(route.url);
        const body = method === 'GET' ? undefined : {};
        if (!scope) {
          const refused = await call(t.app, method, url, { token: full, body });
          expect([route.url, refused.status, refused.body.code]).toEqual([route.url, 403, 'API_KEY_NOT_ALLOWED']);
          closed++;
          continue;
        }
        const refused = await call(t.app, method, url, { token: keyWithout.get(scope)!, body, lang: 'en' });
        expect([route.url, refused.status, refused.body.code]).toEqual([route.url, 403, 'SCOPE_REQUIRED']);
        expect(refused.body.message).toBe(text('en', 'errors.SCOPE_REQUIRED', { scope }));
        // Through the guard, a route may answer a file (CSV, text), not JSON.
        const passed = await t.app.inject({ method, url, headers: { authorization: `Bearer ${keyWith.get(scope)!}` }, ...(body ? { payload: body } : {}) });
        const code = passed.headers['content-type']?.toString().startsWith('application/json') ? (passed.json() as { code?: string }).code : undefined;
        expect([route.url, code !== undefined && GUARD_CODES.includes(code)]).toEqual([route.url, false]);
        scoped++;
      }
    }
    // Every part of the customer's API is reachable with some scope; admin, distribution, password and keys are not.
    expect(scoped).toBeGreaterThan(25);
    expect(closed).toBeGreaterThan(20);
    expect(routes.some((r) => r.url.startsWith('/api/manage/') && scopeOf(r.schema))).toBe(false);
    // OpenAPI shows each operation's scope.
    const doc = (await call(t.app, 'GET', '/api/docs')).body as { paths: Record<string, Record<string, { security?: unknown }>> };
    expect(doc.paths['/api/traffic']!.get!.security).toEqual([{ bearer: [] }, { apiKey: ['read'] }]);
  });

  it('refuses a revoked key at once, on another API process too, an expired one, and one from an address it does not list', async () => {
    const { token } = await signedIn(t);
    const second = await createTestApp(dialect, {}, { sameStoreAs: t });
    try {
      const made = await newKey(token, { name: 'job', scopes: ['read'], allowlist: ['203.0.113.0/24', '2001:db8::1'] });
      const key = made.body.data.key as string;
      expect(made.body.data.allowlist).toEqual(['203.0.113.0/24', '2001:db8::1']);
      expect((await call(second.app, 'GET', '/api/traffic', { token: key, ip: '203.0.113.9' })).status).toBe(200);
      const outside = await call(t.app, 'GET', '/api/traffic', { token: key, ip: '198.51.100.9', lang: 'en' });
      expect([outside.status, outside.body.code]).toEqual([403, 'API_KEY_ADDRESS']);
      expect(outside.body.message).toBe(text('en', 'errors.API_KEY_ADDRESS', { ip: '198.51.100.9' }));

      expect((await call(t.app, 'DELETE', `/api/user/api-keys/${made.body.data.id}`, { token, body: {} })).status).toBe(200);
      for (const app of [t.app, second.app]) {
        const gone = await call(app, 'GET', '/api/traffic', { token: key, ip: '203.0.113.9' });
        expect([gone.status, gone.body.code]).toEqual([401, 'API_KEY_INVALID']);
      }
      expect((await call(t.app, 'GET', '/api/user/api-keys', { token })).body.data.items).toEqual([]);

      const soon = new Date(t.clock.now().getTime() + 60_000).toISOString();
      const expiring = (await newKey(token, { name: 'short', scopes: ['read'], expiresAt: soon })).body.data.key as string;
      expect((await call(t.app, 'GET', '/api/traffic', { token: expiring })).status).toBe(200);
      t.clock.advance(61_000);
      expect((await call(t.app, 'GET', '/api/traffic', { token: expiring })).body.code).toBe('API_KEY_INVALID');
    } finally {
      await second.close();
    }
  });

  it('refuses bad keys clearly and changes nothing; nobody revokes another customer\u2019s key but an admin', async () => {
    const alice = await signedIn(t);
    const bob = await signedIn(t);
    for (const [body, field] of [
      [{ name: '', scopes: ['read'] }, 'validation.apiKeyName'],
      [{ name: 'x', scopes: [] }, 'validation.apiKeyScopes'],
      [{ name: 'x', scopes: ['admin'] }, 'validation.apiKeyScopes'],
      [{ name: 'x', scopes: ['buy'] }, 'validation.apiKeySpendCapRequired'],
      [{ name: 'x', scopes: ['read'], expiresAt: new Date(t.clock.now().getTime() - 1000).toISOString() }, 'validation.apiKeyExpiry'],
      [{ name: 'x', scopes: ['read'], allowlist: ['not-an-ip'] }, 'validation.allowlistAddress'],
    ] as const) {
      const res = await call(t.app, 'POST', '/api/user/api-keys', { token: alice.token, body, lang: 'zh-cn' });
      expect([res.status, res.body.code]).toEqual([400, 'VALIDATION_FAILED']);
      expect(res.body.message).toContain(text('zh-cn', field));
    }
    expect((await call(t.app, 'GET', '/api/user/api-keys', { token: alice.token })).body.data.items).toEqual([]);

    const made = await newKey(alice.token, { name: 'mine', scopes: ['read'] });
    const key = made.body.data.key as string;
    expect((await call(t.app, 'DELETE', `/api/user/api-keys/${made.body.data.id}`, { token: bob.token, body: {} })).status).toBe(404);
    // A key cannot manage keys, not even revoke itself.
    expect((await call(t.app, 'DELETE', `/api/user/api-keys/${made.body.data.id}`, { token: key, body: {} })).body.code).toBe('API_KEY_NOT_ALLOWED');
    expect((await call(t.app, 'GET', '/api/traffic', { token: key })).status).toBe(200);
    // A made-up key of the right shape is refused as invalid.
    expect((await call(t.app, 'GET', '/api/traffic', { token: `rk_${'A'.repeat(43)}` })).body.code).toBe('API_KEY_INVALID');

    const admin = await signedIn(t, 'admin');
    const detail = await call(t.app, 'GET', `/api/manage/user/${alice.user.id}`, { token: admin.token });
    expect(detail.body.data.apiKeys.map((k: { id: number }) => k.id)).toEqual([made.body.data.id]);
    expect((await call(t.app, 'DELETE', `/api/manage/api-keys/${made.body.data.id}`, { token: admin.token, body: {} })).status).toBe(200);
    expect((await call(t.app, 'GET', '/api/traffic', { token: key })).body.code).toBe('API_KEY_INVALID');
  });

  it('holds at most API_KEYS_MAX live keys, 30 made at once included; a revoked one frees its place', async () => {
    const { token } = await signedIn(t);
    const answers = await Promise.all(Array.from({ length: 30 }, (_, i) => newKey(token, { name: `k${i}`, scopes: ['read'] })));
    expect(answers.filter((a) => a.status === 200)).toHaveLength(API_KEYS_MAX);
    expect(new Set(answers.filter((a) => a.status !== 200).map((a) => `${a.status} ${a.body.code}`))).toEqual(new Set(['409 API_KEYS_FULL']));
    const listed = (await call(t.app, 'GET', '/api/user/api-keys', { token })).body.data.items as { id: number }[];
    expect(listed).toHaveLength(API_KEYS_MAX);
    await call(t.app, 'DELETE', `/api/user/api-keys/${listed[0]!.id}`, { token, body: {} });
    expect((await newKey(token, { name: 'again', scopes: ['read'] })).status).toBe(200);
  });

  it('a key that buys stays within its daily cap, two orders at once included', async () => {
    const { token } = await signedIn(t);
    const goods = (await call(t.app, 'GET', '/api/goods')).body.data.packages as { id: number; price: number }[];
    const cheapest = goods.reduce((a, b) => (a.price <= b.price ? a : b));
    const key = (await newKey(token, { name: 'buyer', scopes: ['buy'], dailySpendCap: cheapest.price * 2 })).body.data.key as string;
    const order = () => call(t.app, 'POST', '/api/buy/dynamic', { token: key, body: { goodsId: cheapest.id, payMethod: 'sandbox' } });
    const answers = await Promise.all([order(), order(), order()]);
    expect(answers.map((a) => a.status).sort()).toEqual([200, 200, 403]);
    expect(answers.find((a) => a.status === 403)!.body.code).toBe('API_KEY_SPEND_CAP');
    const listed = (await call(t.app, 'GET', '/api/user/api-keys', { token })).body.data.items[0];
    expect(listed.spentToday).toBe(cheapest.price * 2);
  });
});

describe('an API key\u2019s rate limit with REDIS_URL', () => {
  it('is one count shared by two API processes', async () => {
    const env = { REDIS_URL: process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379', REDIS_PREFIX: `resi-test-${randomBytes(6).toString('hex')}:`, API_KEY_RATE_LIMIT: '6' };
    const a = await createTestApp('sqlite', env);
    const b = await createTestApp('sqlite', env, { sameStoreAs: a });
    try {
      const { token } = await signedIn(a);
      const key = (await call(a.app, 'POST', '/api/user/api-keys', { token, body: { name: 'poller', scopes: ['read'] } })).body.data.key as string;
      const statuses: number[] = [];
      for (let i = 0; i < 8; i++) statuses.push((await call(i % 2 ? b.app : a.app, 'GET', '/api/traffic', { token: key })).status);
      expect(statuses).toEqual([200, 200, 200, 200, 200, 200, 429, 429]);
      // The person's own session is not the key's budget.
      expect((await call(a.app, 'GET', '/api/traffic', { token })).status).toBe(200);
    } finally {
      await b.close();
      await a.close();
    }
  });
});

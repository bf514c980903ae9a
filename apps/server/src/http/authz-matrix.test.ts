import type { RouteOptions } from 'fastify';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { uniqueIp } from '../../test/accounts';
import { call } from '../../test/auth-flows';
import { buy, configureMethod, seedCatalogue, signedIn } from '../../test/commerce';
import { recordFigure } from '../../test/security-figures';
import { concrete, methodsOf, seenRoutes } from '../../test/route-spy';
import { importInventory } from '../../test/static-kit';
import { DIALECTS, type TestApp, createTestApp } from '../../test/test-app';

/*
 * The authorization matrix: every route the real app registers × every kind of caller, each cell sent
 * and checked against docs/api.md#sign-in-and-roles (missing/invalid token 401, a role that may not 403, other users' data
 * 404). Routes are seen as in access-policy.test.ts: an onRoute hook on every Fastify instance.
 */
vi.mock('fastify', (original) => import('../../test/route-spy').then((m) => m.withRouteSpy(original)));

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';
/** One request of the matrix: the refusal expected, or for a filter, the answer to an id nobody has. */
interface Cell {
  principal: string;
  route: string;
  expected: 401 | 403 | 404 | 'as for an unknown id';
  status: number;
  ok: boolean;
}

/**
 * Keys by which a request names a caller's own rows; a route that takes one needs a case below. Ids of
 * the shop's catalogue (packages, regions, businesses) are everyone's to name.
 */
const OWNED_KEY = /^(id|orderNo|[a-z]+Ids?)$/;
const CATALOGUE_KEYS = ['goodsId', 'regionId', 'businessId'];

/** Figures of both stores, recorded together once the second has run. */
const figures: string[] = [];

/** Keys of a route's params, query and body schemas (zod objects, possibly nullish). */
function schemaKeys(r: RouteOptions): string[] {
  const schema = (r.schema ?? {}) as Record<string, unknown>;
  return ['params', 'querystring', 'body'].flatMap((part) => {
    let s = schema[part] as { shape?: object; unwrap?: () => unknown } | undefined;
    while (s && !s.shape && typeof s.unwrap === 'function') s = s.unwrap() as typeof s;
    return s?.shape ? Object.keys(s.shape) : [];
  });
}

describe.each(DIALECTS)('authorization matrix on %s', (dialect) => {
  let t: TestApp;
  let routes: RouteOptions[];
  let webDist: string;
  beforeAll(async () => {
    webDist = mkdtempSync(path.join(tmpdir(), 'resi-web-'));
    writeFileSync(path.join(webDist, 'index.html'), '<!doctype html><title>x</title>');
    seenRoutes.length = 0;
    t = await createTestApp(dialect, {}, { webDist });
    // Fastify adds a HEAD twin to each GET; it answers as its GET does, so the GET stands for both.
    routes = seenRoutes.filter((r) => methodsOf(r).length > 0);
    await seedCatalogue(t);
  });
  afterAll(async () => {
    await t.close();
    rmSync(webDist, { recursive: true, force: true });
  });

  it('refuses every caller every route it may not use, and other users\u2019 rows', async () => {
    const admin = await signedIn(t, 'admin');
    await configureMethod(t, admin.token, 'manual', { instructionsEn: 'Pay by bank transfer' });
    const owner = await signedIn(t);
    const customer = await signedIn(t);
    const distributor = await signedIn(t);
    await t.db.db.updateTable('users').set({ is_distributor: 1 }).where('id', '=', distributor.user.id).execute();
    const disabled = await signedIn(t);
    await t.db.db.updateTable('users').set({ status: 'disabled' }).where('id', '=', disabled.user.id).execute();
    const ticket = async () => (await call(t.app, 'POST', '/api/export-ticket', { token: customer.token })).body.data.ticket as string;

    // The owner's rows that the others will name.
    const account = await call(t.app, 'POST', '/api/proxy/dynamic', { token: owner.token, body: { username: `own_${dialect}_1`, password: 'Secret123' } });
    expect(account.status).toBe(200);
    const accountId = account.body.data.id as number;
    const orderNo = await buy(t, owner.token, 1, 'manual');
    // A static IP of the owner's.
    const staticRegionId = (await call(t.app, 'GET', '/api/static-region')).body.data.items[0].id as number;
    const businessId = (await call(t.app, 'GET', '/api/business')).body.data.items[0].id as number;
    await importInventory(t, admin.token, { regionId: staticRegionId, ips: ['203.0.113.77', '203.0.113.78'] });
    const granted = await call(t.app, 'POST', '/api/manage/static-recharge', { token: admin.token, body: { userId: owner.user.id, regionId: staticRegionId, businessId, quantity: 1, days: 30, note: 'matrix' } });
    expect(granted.status).toBe(200);
    const staticId = (await call(t.app, 'GET', '/api/proxy/static', { token: owner.token })).body.data.items[0].id as number;
    const listed = await call(t.app, 'POST', '/api/proxy/allowlist', { token: owner.token, body: { proxyAccountId: accountId, address: `198.18.${dialect === 'sqlite' ? 77 : 78}.1` } });
    expect(listed.status).toBe(200);
    const entryId = listed.body.data.id as number;
    const noticeId = (
      await t.db.db
        .insertInto('notices')
        .values({ user_id: owner.user.id, kind: 'balance.empty', threshold: 0, balance_bytes: 0, account_id: null, account_username: null, used_bytes: null, limit_bytes: null, created_at: t.clock.now().toISOString() })
        .returning('id')
        .executeTakeFirstOrThrow()
    ).id;
    const apiKeyId = (await call(t.app, 'POST', '/api/user/api-keys', { token: owner.token, body: { name: 'owned', scopes: ['read'] } })).body.data.id as number;
    const webhookId = (await call(t.app, 'POST', '/api/user/webhooks', { token: owner.token, body: { url: 'http://127.0.0.1:9/owned', events: ['order.paid'] } })).body.data.id as number;
    await t.app.webhooks.emit(owner.user.id, 'order.paid', { owned: true });
    const deliveryId = (await call(t.app, 'GET', `/api/user/webhooks/${webhookId}/deliveries`, { token: owner.token })).body.data.items[0].id as number;

    // A referral of the distributor's, and a second distributor who will name it and its distributor.
    const otherDistributor = await signedIn(t);
    await t.db.db.updateTable('users').set({ is_distributor: 1 }).where('id', '=', otherDistributor.user.id).execute();
    const referred = await signedIn(t);
    await t.db.db.updateTable('users').set({ referrer_id: distributor.user.id }).where('id', '=', referred.user.id).execute();

    // Traffic of the owner's account, so a filter that leaked it would show.
    const hour = new Date(Math.floor(t.clock.now().getTime() / 3_600_000) * 3_600_000).toISOString();
    await t.db.db.insertInto('usage_hourly').values({ account_id: accountId, user_id: owner.user.id, hour, country: 'US', bytes_up: 1234, bytes_down: 5678 }).execute();
    expect((await call(t.app, 'GET', `/api/record/usage?accountId=${accountId}`, { token: owner.token })).body.data.total).toBe(1);

    // Requests that name the owner's rows, one per route that takes such a key (checked below). Acting on
    // a row is 404; a list filter answers exactly as for an id nobody has (no data, no hint it exists).
    const unknownId = 2_000_000_000;
    type OwnedCase = { url: (id: number | string) => string; body?: (id: number | string) => Record<string, unknown>; filter?: true };
    const ownedCases: Record<string, OwnedCase> = {
      'PUT /api/proxy/dynamic/:id': { url: (id) => `/api/proxy/dynamic/${id}`, body: () => ({ remark: 'taken over' }) },
      'DELETE /api/proxy/dynamic/:id': { url: (id) => `/api/proxy/dynamic/${id}` },
      'GET /api/proxy/dynamic/export': { url: (id) => `/api/proxy/dynamic/export?accountId=${id}` },
      'GET /api/traffic': { url: (id) => `/api/traffic?accountId=${id}`, filter: true },
      'GET /api/record/usage': { url: (id) => `/api/record/usage?accountId=${id}`, filter: true },
      'GET /api/record/usage/export': { url: (id) => `/api/record/usage/export?accountId=${id}`, filter: true },
      'POST /api/order-check': { url: () => '/api/order-check', body: () => ({ orderNo }) },
      'POST /api/order-cancel': { url: () => '/api/order-cancel', body: () => ({ orderNo }) },
      'DELETE /api/proxy/allowlist/:id': { url: () => `/api/proxy/allowlist/${entryId}` },
      'DELETE /api/user/api-keys/:id': { url: () => `/api/user/api-keys/${apiKeyId}` },
      'POST /api/user/notices/:id/read': { url: () => `/api/user/notices/${noticeId}/read`, body: () => ({}) },
      'PUT /api/user/webhooks/:id': { url: () => `/api/user/webhooks/${webhookId}`, body: () => ({ url: 'http://127.0.0.1:9/taken-over' }) },
      'DELETE /api/user/webhooks/:id': { url: () => `/api/user/webhooks/${webhookId}` },
      'GET /api/user/webhooks/:id/deliveries': { url: () => `/api/user/webhooks/${webhookId}/deliveries` },
      'POST /api/user/webhooks/:id/deliveries/:deliveryId/replay': { url: () => `/api/user/webhooks/${webhookId}/deliveries/${deliveryId}/replay` },
      'POST /api/proxy/dynamic/:id/extract-key': { url: (id) => `/api/proxy/dynamic/${id}/extract-key` },
      'PUT /api/proxy/static/:id': { url: () => `/api/proxy/static/${staticId}`, body: () => ({ remark: 'taken over' }) },
      'POST /api/proxy/static/:id/replace': { url: () => `/api/proxy/static/${staticId}/replace`, body: () => ({ reason: 'slow' }) },
      // Distribution: another distributor's referrals, payoffs and referral ids.
      'GET /api/distribution/user': { url: () => `/api/distribution/user?distributorId=${distributor.user.id}` },
      'GET /api/distribution/payoff': { url: () => `/api/distribution/payoff?distributorId=${distributor.user.id}` },
      'GET /api/distribution/commission': { url: () => `/api/distribution/commission?distributorId=${distributor.user.id}` },
      'POST /api/distribution/saveuser': { url: () => '/api/distribution/saveuser', body: () => ({ id: referred.user.id, status: 'disabled' }) },
    };

    const cells: Cell[] = [];
    const send = async (principal: string, r: RouteOptions, method: Method, expected: Cell['expected'], opts: { token?: string; url?: string; body?: Record<string, unknown> } = {}) => {
      const res = await t.app.inject({
        method,
        url: opts.url ?? concrete(r.url),
        remoteAddress: uniqueIp(),
        headers: opts.token ? { authorization: `Bearer ${opts.token}` } : {},
        ...(opts.body ? { payload: opts.body } : {}),
      });
      cells.push({ principal, route: `${method} ${r.url}`, expected, status: res.statusCode, ok: res.statusCode === expected });
    };
    const sendFilter = async (principal: string, r: RouteOptions, method: Method, token: string, c: OwnedCase) => {
      const ask = (id: number) => t.app.inject({ method, url: c.url(id), remoteAddress: uniqueIp(), headers: { authorization: `Bearer ${token}` } });
      const [owned, unknown] = [await ask(accountId), await ask(unknownId)];
      const ok = owned.statusCode < 500 && owned.statusCode === unknown.statusCode && owned.body === unknown.body && !owned.body.includes('5678');
      cells.push({ principal, route: `${method} ${r.url}`, expected: 'as for an unknown id', status: owned.statusCode, ok });
    };

    const guarded = routes.filter((r) => r.config?.access !== 'public');
    const privileged = guarded.filter((r) => r.config?.access === 'admin' || r.config?.access === 'distributor');
    const adminOnly = guarded.filter((r) => r.config?.access === 'admin');
    const ownedRoutes = guarded.filter((r) => r.config?.access !== 'admin' && schemaKeys(r).some((k) => OWNED_KEY.test(k) && !CATALOGUE_KEYS.includes(k)));
    // Every route naming rows of its caller is in the matrix: a new one without a case fails here.
    expect(ownedRoutes.flatMap((r) => methodsOf(r).map((m) => `${m} ${r.url}`)).filter((name) => !ownedCases[name])).toEqual([]);

    for (const r of guarded) {
      for (const method of methodsOf(r)) {
        await send('anonymous', r, method, 401);
        await send('disabled user', r, method, 401, { token: disabled.token });
        await send('export ticket as bearer', r, method, 401, { token: await ticket() });
        // A session token in a URL signs nothing in (docs/api.md#csv-exports).
        const withToken = (url: string, value: string) => `${url}${url.includes('?') ? '&' : '?'}token=${encodeURIComponent(value)}`;
        await send('session token in the query', r, method, 401, { url: withToken(concrete(r.url), customer.token) });
        // A customer's ticket on an admin export signs the customer in: the role still decides.
        const exportRoute = method === 'GET' && r.config?.export !== undefined;
        if (!exportRoute || r.config?.access === 'admin') await send('export ticket in the query', r, method, exportRoute ? 403 : 401, { url: withToken(concrete(r.url), await ticket()) });
      }
    }
    for (const r of privileged) for (const method of methodsOf(r)) await send('customer', r, method, 403, { token: customer.token });
    for (const r of adminOnly) for (const method of methodsOf(r)) await send('distributor', r, method, 403, { token: distributor.token });
    for (const r of ownedRoutes) {
      for (const method of methodsOf(r)) {
        const c = ownedCases[`${method} ${r.url}`]!;
        // Distribution routes are for distributors, and admins see every distributor's rows there by design
        // (docs/business-rules.md#distribution): the one to refuse is another distributor.
        const probers: (readonly [string, string])[] =
          r.config?.access === 'distributor'
            ? [["another distributor's ids", otherDistributor.token]]
            : [
                ["another customer's ids", customer.token],
                ["admin with a customer's ids", admin.token],
              ];
        for (const [principal, token] of probers) {
          if (c.filter) await sendFilter(principal, r, method, token, c);
          else await send(principal, r, method, 404, { token, url: c.url(accountId), body: c.body?.(accountId) });
        }
      }
    }

    const wrong = cells.filter((c) => !c.ok);
    // A refusal answered with success, or a filter that answered differently for the owner's id.
    const allowed = wrong.filter((c) => c.status < 400);
    expect(wrong.map((c) => `${c.principal}: ${c.route} → ${c.status}, expected ${c.expected}`)).toEqual([]);
    // The owner's rows are as they were.
    const mine = await call(t.app, 'GET', '/api/proxy/dynamic', { token: owner.token });
    expect(mine.body.data.items).toEqual([expect.objectContaining({ id: accountId, remark: null })]);
    expect((await call(t.app, 'GET', '/api/user/webhooks', { token: owner.token })).body.data.items).toEqual([expect.objectContaining({ id: webhookId, url: 'http://127.0.0.1:9/owned' })]);
    expect((await t.db.db.selectFrom('users').select('status').where('id', '=', referred.user.id).executeTakeFirstOrThrow()).status).toBe('active');

    const principals = new Set(cells.map((c) => c.principal));
    const count = (expected: Cell['expected']) => cells.filter((c) => c.expected === expected).length;
    figures.push(
      `${dialect}: ${routes.length} routes (${guarded.length} guarded, ${ownedRoutes.length} naming a caller's rows) × ${principals.size} kinds of caller, ` +
        `${cells.length} requests (${count(401)} expecting 401, ${count(403)} 403, ${count(404)} 404, ${count('as for an unknown id')} filters by another's id), ` +
        `${allowed.length} unexpected allows`,
    );
    recordFigure({
      id: 'authz-matrix',
      threat: 'Anonymous clients, disabled users, stray tickets and customers reaching routes or rows that are not theirs',
      test: 'apps/server/src/http/authz-matrix.test.ts › authorization matrix',
      figure: figures.join('; '),
    });
    // About 350 requests and as many tickets per store, on machines shared by several test runs.
  }, 120_000);
});

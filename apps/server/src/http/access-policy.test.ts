import { ACCESS_POLICIES } from '@resi/contract';
import type { RouteOptions } from 'fastify';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createUser, uniqueEmail, uniqueIp } from '../../test/accounts';
import { login } from '../../test/auth-flows';
import { concrete, seenRoutes } from '../../test/route-spy';
import { DIALECTS, type TestApp, createTestApp } from '../../test/test-app';

/**
 * Every route buildApp registers, seen through an onRoute hook added to each Fastify instance the
 * moment it is created — before the app's own plugins and routes — so nothing is missed.
 */
vi.mock('fastify', (original) => import('../../test/route-spy').then((m) => m.withRouteSpy(original)));

const KNOWN = ['public', 'customer', 'distributor', 'admin'];

describe.each(DIALECTS)('access policy on %s', (dialect) => {
  let t: TestApp;
  let routes: RouteOptions[];
  let webDist: string;
  beforeAll(async () => {
    // With a built console, so the SPA's routes are enumerated too.
    webDist = mkdtempSync(path.join(tmpdir(), 'resi-web-'));
    writeFileSync(path.join(webDist, 'index.html'), '<!doctype html><title>x</title>');
    seenRoutes.length = 0;
    t = await createTestApp(dialect, {}, { webDist });
    routes = [...seenRoutes];
  });
  afterAll(async () => {
    await t.close();
    rmSync(webDist, { recursive: true, force: true });
  });

  const label = (r: RouteOptions) => `${String(r.method)} ${r.url}`;

  it('sees the routes of the app', () => {
    const names = routes.map(label);
    expect(names).toEqual(expect.arrayContaining(['POST /api/login', 'GET /api/user', 'GET /api/manage/user', 'GET /api/distribution/info', 'GET /api/docs', 'GET /manage/*', 'GET /']));
    expect(KNOWN).toEqual([...ACCESS_POLICIES]);
  });

  it('every route declares one of the known access policies', () => {
    const missing = routes.filter((r) => !KNOWN.includes(String(r.config?.access))).map(label);
    expect(missing).toEqual([]);
  });

  it('every non-public route refuses an anonymous caller with 401', async () => {
    const guarded = routes.filter((r) => r.config?.access !== 'public' && r.method !== 'HEAD');
    expect(guarded.length).toBeGreaterThan(0);
    for (const r of guarded) {
      const methods = ([] as string[]).concat(r.method as string | string[]);
      for (const method of methods) {
        const res = await t.app.inject({ method: method as 'GET', url: concrete(r.url) });
        expect(res.statusCode, label(r)).toBe(401);
      }
    }
  });

  it('every admin and distributor route refuses a plain customer with 403', async () => {
    const email = uniqueEmail('policy');
    await createUser(t, { email, password: 'secret123' });
    const { token } = (await login(t.app, email, 'secret123', uniqueIp())).body;
    const privileged = routes.filter((r) => (r.config?.access === 'admin' || r.config?.access === 'distributor') && r.method !== 'HEAD');
    expect(privileged.length).toBeGreaterThan(0);
    for (const r of privileged) {
      const methods = ([] as string[]).concat(r.method as string | string[]);
      for (const method of methods) {
        const res = await t.app.inject({ method: method as 'GET', url: concrete(r.url), headers: { authorization: `Bearer ${token}` } });
        expect(res.statusCode, label(r)).toBe(403);
      }
    }
  });

  it('every route that takes a body refuses an unknown field with 400', async () => {
    const email = uniqueEmail('bodies');
    const admin = await createUser(t, { email, password: 'secret123' });
    await t.db.db.updateTable('users').set({ role: 'admin' }).where('id', '=', admin.id).execute();
    const { token } = (await login(t.app, email, 'secret123', uniqueIp())).body;
    // Parameters that pass their own schemas, so the body is what gets refused.
    const sample: Record<string, string> = { orderNo: 'D20260101000000123456' };
    const withBody = routes.filter(
      (r) =>
        ([] as string[]).concat(r.method as string | string[]).some((m) => ['POST', 'PUT', 'PATCH', 'DELETE'].includes(m)) &&
        // Payment webhooks take the provider's form or raw body, verified by its signature, not a schema.
        !r.url.startsWith('/api/pay/notify/'),
    );
    expect(withBody.map(label)).toEqual(expect.arrayContaining(['POST /api/logout', 'POST /api/login', 'DELETE /api/proxy/dynamic/:id']));
    const accepted: string[] = [];
    // Log out last: a logout that wrongly accepts the body would end the session the others need.
    const ordered = [...withBody].sort((a, b) => Number(a.url.endsWith('/logout')) - Number(b.url.endsWith('/logout')));
    for (const r of ordered) {
      for (const method of ([] as string[]).concat(r.method as string | string[])) {
        const url = r.url.replace(/:(\w+)/g, (_m, name: string) => sample[name] ?? '1');
        const res = await t.app.inject({ method: method as 'POST', url, headers: { authorization: `Bearer ${token}` }, payload: { zzUnknownField: 1 } });
        if (res.statusCode !== 400 || !res.body.includes('zzUnknownField')) accepted.push(`${method} ${r.url} → ${res.statusCode}`);
      }
    }
    expect(accepted).toEqual([]);
    // A route that takes no input still works without any body (Fastify hands the schema null).
    const ticket = await t.app.inject({ method: 'POST', url: '/api/export-ticket', headers: { authorization: `Bearer ${token}` } });
    expect(ticket.statusCode).toBe(200);
  });

  it('admin routes are exactly those under /api/manage/, and the payoff decision the spec names under /distribution', () => {
    // docs/api.md#sign-in-and-roles: the spec's call table puts `POST /distribution/status` among the distribution calls.
    const elsewhere = ['/api/distribution/status'];
    for (const r of routes) {
      if (r.url.startsWith('/api/manage/') || elsewhere.includes(r.url)) expect(r.config?.access, label(r)).toBe('admin');
      if (r.config?.access === 'admin' && !elsewhere.includes(r.url)) expect(r.url, label(r)).toMatch(/^\/api\/manage\//);
    }
  });
});

describe('a route without a policy', () => {
  it('cannot be registered: the guard throws', async () => {
    const errors: string[] = [];
    const t = await createTestApp('sqlite', {}, {
      beforeReady: (app) => {
        const attempts: Array<() => unknown> = [
          () => app.get('/api/no-policy', async () => 'open'),
          () => app.get('/api/empty-config', { config: {} }, async () => 'open'),
          () => app.post('/api/bad-policy', { config: { access: 'everyone' as never } }, async () => 'open'),
          () => app.route({ method: 'GET', url: '/api/route-form', handler: async () => 'open' }),
        ];
        for (const attempt of attempts) {
          try {
            attempt();
            errors.push('registered');
          } catch (err) {
            errors.push((err as Error).message);
          }
        }
      },
    });
    try {
      expect(errors).toEqual([
        expect.stringMatching(/GET \/api\/no-policy has no access policy/),
        expect.stringMatching(/GET \/api\/empty-config has no access policy/),
        expect.stringMatching(/POST \/api\/bad-policy has no access policy/),
        expect.stringMatching(/GET \/api\/route-form has no access policy/),
      ]);
      for (const url of ['/api/no-policy', '/api/empty-config', '/api/route-form']) {
        expect((await t.app.inject({ method: 'GET', url })).statusCode).toBe(404);
      }
    } finally {
      await t.close();
    }
  });

  it('inside a plugin stops the app from starting', async () => {
    const starting = createTestApp('sqlite', {}, {
      beforeReady: (app) => {
        app.register(
          async (plugin) => {
            plugin.get('/forgotten', async () => 'open');
          },
          { prefix: '/api/plugin' },
        );
      },
    });
    await expect(starting).rejects.toThrow(/GET \/api\/plugin\/forgotten has no access policy/);
  });
});

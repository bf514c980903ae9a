import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createUser, uniqueEmail, uniqueIp } from '../../test/accounts';
import { call, login } from '../../test/auth-flows';
import { type CatalogueLang, CATALOGUE_LANGS, text } from '../../test/i18n';
import { DIALECTS, type TestApp, createTestApp } from '../../test/test-app';

const SECRET_DETAIL = 'boom: SELECT password_hash FROM users /srv/secret.ts:12';

describe.each(DIALECTS)('HTTP conventions on %s', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(dialect, {}, {
      beforeReady: (app) => {
        app.get('/api/test-only/boom', { config: { access: 'public' } }, async () => {
          throw new Error(SECRET_DETAIL);
        });
        // Rules without i18n keys: zod's own (English) texts must not reach the caller.
        const plain = z.strictObject({ n: z.number().int().min(3), id: z.number().positive(), name: z.string().max(4), pick: z.enum(['a', 'b']) });
        app.post('/api/test-only/plain', { config: { access: 'public' }, schema: { body: plain } }, async () => ({ data: null }));
      },
    });
  });
  afterAll(async () => {
    await t.close();
  });

  const get = (url: string, opts: { token?: string; lang?: string } = {}) => call(t.app, 'GET', url, opts);
  async function tokenFor(kind: 'customer' | 'admin' | 'distributor') {
    const email = uniqueEmail(kind);
    const user = await createUser(t, { email, password: 'secret123' });
    if (kind === 'admin') await t.db.db.updateTable('users').set({ role: 'admin' }).where('id', '=', user.id).execute();
    if (kind === 'distributor') await t.db.db.updateTable('users').set({ is_distributor: 1 }).where('id', '=', user.id).execute();
    const res = await login(t.app, email, 'secret123', uniqueIp());
    expect(res.status).toBe(200);
    return { user, token: res.body.token as string };
  }
  const expectExactError = (body: Record<string, unknown>, code: string) => {
    expect(Object.keys(body).sort()).toEqual(['code', 'message']);
    expect(body.code).toBe(code);
    expect(body.message).toEqual(expect.any(String));
    expect(JSON.stringify(body)).not.toMatch(/stack|at .*\.ts:\d+/);
  };

  describe('authentication and roles', () => {
    it.each([
      ['no token', {}],
      ['an unknown token', { authorization: 'Bearer ' + 'x'.repeat(43) }],
      ['another scheme', { authorization: 'Basic dXNlcjpwYXNz' }],
      ['an empty bearer', { authorization: 'Bearer ' }],
    ])('answers 401 UNAUTHENTICATED with %s', async (_label, headers) => {
      for (const [method, url] of [['GET', '/api/user'], ['POST', '/api/logout'], ['GET', '/api/manage/user'], ['GET', '/api/distribution/info']] as const) {
        const res = await t.app.inject({ method, url, headers });
        expect(res.statusCode, `${method} ${url}`).toBe(401);
        expect(res.json()).toEqual({ code: 'UNAUTHENTICATED', message: text('en', 'errors.UNAUTHENTICATED') });
      }
    });

    it('refuses a customer on admin and distributor routes with 403 FORBIDDEN', async () => {
      const { token } = await tokenFor('customer');
      for (const url of ['/api/manage/user', '/api/distribution/info']) {
        const res = await get(url, { token });
        expect(res.status, url).toBe(403);
        expect(res.body).toEqual({ code: 'FORBIDDEN', message: text('en', 'errors.FORBIDDEN') });
      }
      expect((await get('/api/user', { token })).status).toBe(200);
    });

    it('lets a distributor open distribution routes but not admin routes', async () => {
      const { user, token } = await tokenFor('distributor');
      const info = await get('/api/distribution/info', { token });
      expect(info.status).toBe(200);
      expect(info.body.data).toEqual({
        inviteCode: user.invite_code,
        inviteLink: `${t.config.PUBLIC_URL}/manage/user/register?invite=${user.invite_code}`,
        rate: 10,
        referrals: 0,
        payingReferrals: 0,
        currency: t.config.CURRENCY,
        pending: 0,
        available: 0,
        owed: 0,
        held: 0,
        paid: 0,
        minPayout: 1000,
        payoutMethods: ['usdt-trc20'],
      });
      expect((await get('/api/manage/user', { token })).status).toBe(403);
    });

    it('lets an admin open admin and distributor routes', async () => {
      const { token } = await tokenFor('admin');
      expect((await get('/api/manage/user', { token })).status).toBe(200);
      expect((await get('/api/distribution/info', { token })).status).toBe(200);
    });

    it('reads the role on every request: a promotion applies to an existing session', async () => {
      const { user, token } = await tokenFor('customer');
      expect((await get('/api/manage/user', { token })).status).toBe(403);
      await t.db.db.updateTable('users').set({ role: 'admin' }).where('id', '=', user.id).execute();
      expect((await get('/api/manage/user', { token })).status).toBe(200);
    });
  });

  describe('lists', () => {
    let admin: string;
    const domain = `paging-${dialect}.test`;
    beforeAll(async () => {
      admin = (await tokenFor('admin')).token;
      for (let i = 0; i < 25; i++) await createUser(t, { email: `p${String(i).padStart(2, '0')}@${domain}`, password: 'secret123' });
      for (const local of ['a_b', 'axb', 'pc%t', 'pcxt', 'bs\\x', 'bsyx']) await createUser(t, { email: `${local}@like.test`, password: 'secret123' });
    });
    const list = (query: Record<string, string>) => get(`/api/manage/user?${new URLSearchParams(query)}`, { token: admin });

    it('pages with pageSize 20 by default, newest first', async () => {
      const first = await list({ email: domain });
      expect(first.status).toBe(200);
      expect(first.body.data).toMatchObject({ total: 25, page: 1, pageSize: 20 });
      expect(first.body.data.items).toHaveLength(20);
      const second = await list({ email: domain, page: '2' });
      expect(second.body.data).toMatchObject({ total: 25, page: 2, pageSize: 20 });
      expect(second.body.data.items).toHaveLength(5);
      const ids = [...first.body.data.items, ...second.body.data.items].map((u: { id: number }) => u.id);
      expect(new Set(ids).size).toBe(25);
      expect(ids).toEqual([...ids].sort((a, b) => b - a));
      expect(first.body.data.items[0]).not.toHaveProperty('passwordHash');
      expect(JSON.stringify(first.body)).not.toContain('scrypt$');
    });

    it('accepts pageSize up to 100 and refuses more, or a page below 1', async () => {
      const hundred = await list({ email: domain, pageSize: '100' });
      expect(hundred.status).toBe(200);
      expect(hundred.body.data.items).toHaveLength(25);
      const bad: Record<string, string>[] = [{ pageSize: '101' }, { pageSize: '0' }, { page: '0' }, { page: 'x' }];
      for (const query of bad) {
        const res = await list(query);
        expect(res.status, JSON.stringify(query)).toBe(400);
        expectExactError(res.body, 'VALIDATION_FAILED');
      }
    });

    it('filters by email with _ and % taken literally', async () => {
      const emails = async (q: string) => (await list({ email: q })).body.data.items.map((u: { email: string }) => u.email).sort();
      expect(await emails('like.test')).toHaveLength(6);
      expect(await emails('a_b')).toEqual(['a_b@like.test']);
      expect(await emails('pc%t')).toEqual(['pc%t@like.test']);
      expect(await emails('bs\\')).toEqual(['bs\\x@like.test']);
      expect(await emails('A_B@LIKE')).toEqual(['a_b@like.test']);
      expect(await emails('%')).toEqual(['pc%t@like.test']);
      expect(await emails('nobody-has-this')).toEqual([]);
    });
  });

  it('answers unknown routes with 404 NOT_FOUND', async () => {
    for (const [method, url] of [['GET', '/api/whatever'], ['POST', '/api/whatever'], ['GET', '/api'], ['DELETE', '/api/user']] as const) {
      const res = await t.app.inject({ method, url });
      expect(res.statusCode, `${method} ${url}`).toBe(404);
      expect(res.json()).toEqual({ code: 'NOT_FOUND', message: text('en', 'errors.NOT_FOUND') });
    }
  });

  describe('languages', () => {
    it('the catalogues really differ, so the checks below can tell them apart', () => {
      const texts = CATALOGUE_LANGS.map((l) => text(l, 'errors.UNAUTHENTICATED'));
      expect(new Set(texts).size).toBe(CATALOGUE_LANGS.length);
    });

    it.each<[string | undefined, CatalogueLang]>([
      ['en', 'en'],
      ['zh-cn', 'zh-cn'],
      ['ZH-CN', 'zh-cn'],
      ['zh', 'zh'],
      ['zh-tw', 'zh'],
      ['zh-TW', 'zh'],
      ['fr', 'en'],
      ['de-DE', 'en'],
      [undefined, 'en'],
    ])('Api-Lang %s answers in %s', async (header, lang) => {
      expect((await get('/api/user', { lang: header })).body.message).toBe(text(lang, 'errors.UNAUTHENTICATED'));
      expect((await get('/api/whatever', { lang: header })).body.message).toBe(text(lang, 'errors.NOT_FOUND'));
      const invalid = await call(t.app, 'POST', '/api/login', { body: {}, lang: header });
      expect(invalid.body.code).toBe('VALIDATION_FAILED');
      expect(invalid.body.message).toContain(text(lang, 'validation.loginAccount'));
    });

    describe.each<CatalogueLang>(['zh', 'zh-cn', 'en'])('in %s', (lang) => {
      const invalid = (detail: string) => ({ code: 'VALIDATION_FAILED', message: text(lang, 'errors.VALIDATION_FAILED', { detail }) });
      const post = (url: string, contentType: string, payload: string) =>
        t.app.inject({ method: 'POST', url, headers: { 'content-type': contentType, 'api-lang': lang }, payload });

      it('says what is wrong with paging in the language asked for', async () => {
        const { token } = await tokenFor('admin');
        const cases: Array<[string, string]> = [
          ['pageSize=101', 'validation.pageSize'],
          ['pageSize=0', 'validation.pageSize'],
          ['pageSize=2.5', 'validation.pageSize'],
          ['page=0', 'validation.page'],
          ['page=x', 'validation.page'],
        ];
        for (const [query, key] of cases) {
          const res = await get(`/api/manage/user?${query}`, { token, lang });
          expect(res.status, query).toBe(400);
          expect(res.body, query).toEqual(invalid(text(lang, key)));
        }
      });

      it("translates Fastify's own refusals of a body it cannot read", async () => {
        const cases: Array<[number, string, Awaited<ReturnType<typeof post>>]> = [
          [400, 'request.invalidJson', await post('/api/login', 'application/json', '{"account": "a",')],
          [400, 'request.emptyJson', await post('/api/login', 'application/json', '')],
          [413, 'request.bodyTooLarge', await post('/api/login', 'application/json', JSON.stringify({ account: 'x'.repeat(1_100_000) }))],
          [415, 'request.mediaType', await post('/api/login', 'application/xml', '<login/>')],
          [400, 'request.notObject', await post('/api/login', 'application/json', '"just a string"')],
        ];
        for (const [status, key, res] of cases) {
          expect(res.statusCode, key).toBe(status);
          expect(res.json(), key).toEqual(invalid(text(lang, key)));
        }
      });

      it('describes rules that have no text of their own by their kind and limits', async () => {
        const body = (b: object) => post('/api/test-only/plain', 'application/json', JSON.stringify({ n: 3, id: 1, name: 'ab', pick: 'a', ...b }));
        const field = (name: string, key: string, vars: Record<string, number> = {}) => text(lang, 'validation.field', { field: name, message: text(lang, key, vars) });
        const cases: Array<[object, string]> = [
          [{ n: 2 }, field('n', 'validation.issue.tooSmall', { minimum: 3 })],
          [{ id: 0 }, field('id', 'validation.issue.greaterThan', { minimum: 0 })],
          [{ name: 'abcde' }, field('name', 'validation.issue.tooLong', { maximum: 4 })],
          [{ n: 'three' }, field('n', 'validation.issue.type')],
          [{ pick: 'c' }, field('pick', 'validation.issue.value')],
        ];
        for (const [change, detail] of cases) {
          const res = await body(change);
          expect(res.statusCode, JSON.stringify(change)).toBe(400);
          expect(res.json(), JSON.stringify(change)).toEqual(invalid(detail));
        }
        expect((await body({})).statusCode).toBe(200);
      });

      it('answers an unknown route in the language asked for', async () => {
        const res = await post('/api/no-such-route', 'application/json', '{}');
        expect(res.statusCode).toBe(404);
        expect(res.json()).toEqual({ code: 'NOT_FOUND', message: text(lang, 'errors.NOT_FOUND') });
      });
    });

    it('localizes success messages too', async () => {
      const { token } = await tokenFor('customer');
      const out = await call(t.app, 'POST', '/api/logout', { token, lang: 'zh-tw' });
      expect(out.body.message).toBe(text('zh', 'messages.loggedOut'));
    });
  });

  describe('error bodies', () => {
    it('hide the details of a server error', async () => {
      const res = await t.app.inject({ method: 'GET', url: '/api/test-only/boom' });
      expect(res.statusCode).toBe(500);
      expect(res.json()).toEqual({ code: 'INTERNAL', message: text('en', 'errors.INTERNAL') });
      expect(res.body).not.toContain('boom');
      expect(res.body).not.toContain('SELECT');
    });

    it('are exactly { code, message } for every kind of client error', async () => {
      const { token } = await tokenFor('customer');
      const cases = [
        await t.app.inject({ method: 'GET', url: '/api/user' }),
        await t.app.inject({ method: 'GET', url: '/api/manage/user', headers: { authorization: `Bearer ${token}` } }),
        await t.app.inject({ method: 'GET', url: '/api/nope' }),
        await t.app.inject({ method: 'POST', url: '/api/login', payload: { account: 1 } }),
        await t.app.inject({ method: 'POST', url: '/api/login', headers: { 'content-type': 'application/json' }, payload: '{"account":' }),
      ];
      expect(cases.map((r) => r.statusCode)).toEqual([401, 403, 404, 400, 400]);
      for (const r of cases) expectExactError(r.json(), (r.json() as { code: string }).code);
    });

    it('malformed JSON is 400 VALIDATION_FAILED', async () => {
      const res = await t.app.inject({ method: 'POST', url: '/api/login', headers: { 'content-type': 'application/json' }, payload: '{"account": "a",' });
      expect(res.statusCode).toBe(400);
      expectExactError(res.json(), 'VALIDATION_FAILED');
    });

    it('an oversized body is refused without details', async () => {
      const res = await t.app.inject({ method: 'POST', url: '/api/login', headers: { 'content-type': 'application/json' }, payload: JSON.stringify({ account: 'x'.repeat(1_100_000) }) });
      expect(res.statusCode).toBe(413);
      expectExactError(res.json(), 'VALIDATION_FAILED');
    });
  });

  it('sets security headers on API answers and errors', async () => {
    for (const url of ['/api/site', '/api/whatever', '/api/user']) {
      const res = await t.app.inject({ method: 'GET', url });
      const csp = String(res.headers['content-security-policy']);
      expect(csp).toContain("default-src 'self'");
      expect(csp).toContain("frame-ancestors 'none'");
      // A console opened over plain HTTP must still load its own scripts and styles.
      expect(csp).not.toContain('upgrade-insecure-requests');
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      expect(res.headers['x-powered-by']).toBeUndefined();
    }
  });

  it('wraps success in { data }', async () => {
    const res = await get('/api/site');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      data: {
        appName: t.config.APP_NAME,
        supportUrl: t.config.SUPPORT_URL ?? '',
        tutorialUrl: t.config.TUTORIAL_URL,
        links: { knowledgeBase: null, faq: null, blog: null, toolbox: null },
        payMethods: [],
      },
    });
  });

  it('publishes an OpenAPI 3 document at /api/docs', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/docs' });
    expect(res.statusCode).toBe(200);
    const doc = res.json();
    expect(doc.openapi).toMatch(/^3\./);
    expect(doc.paths['/api/login']?.post).toBeDefined();
    expect(doc.paths['/api/manage/user']?.get).toBeDefined();
    // Proxies for programs (DESIGN §13): the extraction link with its parameters, the allowlist, the keys.
    expect(doc.paths['/api/extract']?.get?.parameters?.map((p: { name: string }) => p.name)).toEqual(expect.arrayContaining(['key', 'num', 'country', 'life', 'protocol', 'format', 'sep']));
    expect(Object.keys(doc.paths['/api/proxy/allowlist'] ?? {})).toEqual(expect.arrayContaining(['get', 'post']));
    expect(doc.paths['/api/proxy/allowlist/{id}']?.delete).toBeDefined();
    expect(doc.paths['/api/proxy/dynamic/{id}/extract-key']?.post).toBeDefined();
    expect(doc.paths['/api/test-only/boom']).toBeDefined();
    expect(doc.paths['/api/docs']).toBeUndefined();
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call } from '../../../test/auth-flows';
import { signedIn } from '../../../test/commerce';
import { DIALECTS, type TestApp, createTestApp } from '../../../test/test-app';
import { text } from '../../../test/i18n';

let n = 0;
const uname = () => `acct_${process.pid % 1000}_${++n}`;

describe.each(DIALECTS)('proxy accounts on %s', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(dialect);
  });
  afterAll(() => t.close());

  it('creates, lists, edits, disables and deletes an account of ones own', async () => {
    const { token } = await signedIn(t);
    const username = uname();
    const created = await call(t.app, 'POST', '/api/proxy/dynamic', { token, body: { username: username.toUpperCase(), password: 'Secret123', limitBytes: 1024 ** 3, remark: 'scraper' } });
    expect(created.status).toBe(200);
    expect(created.body.data).toMatchObject({ username, password: 'Secret123', status: 'active', limitBytes: 1024 ** 3, usedBytes: 0, remark: 'scraper' });
    const id = created.body.data.id as number;

    const row = await t.db.db.selectFrom('proxy_accounts').select('password_sealed').where('id', '=', id).executeTakeFirstOrThrow();
    expect(row.password_sealed).not.toContain('Secret123');

    const edited = await call(t.app, 'PUT', `/api/proxy/dynamic/${id}`, { token, body: { password: 'Other4567', limitBytes: null, status: 'disabled' } });
    expect(edited.body.data).toMatchObject({ password: 'Other4567', limitBytes: null, status: 'disabled', remark: 'scraper' });
    expect((await call(t.app, 'GET', '/api/proxy/dynamic', { token })).body.data.items).toEqual([edited.body.data]);

    expect((await call(t.app, 'DELETE', `/api/proxy/dynamic/${id}`, { token })).status).toBe(200);
    expect((await call(t.app, 'GET', '/api/proxy/dynamic', { token })).body.data.items).toEqual([]);
    expect((await call(t.app, 'DELETE', `/api/proxy/dynamic/${id}`, { token })).status).toBe(404);
    // The name stays taken, so old usage never shows up under somebody else's new account.
    expect((await call(t.app, 'POST', '/api/proxy/dynamic', { token, body: { username, password: 'Secret123' } })).body.code).toBe('PROXY_USERNAME_TAKEN');
  });

  it("cannot see, edit or delete another customer's account", async () => {
    const alice = await signedIn(t);
    const bob = await signedIn(t);
    const { body } = await call(t.app, 'POST', '/api/proxy/dynamic', { token: alice.token, body: { username: uname(), password: 'Secret123' } });
    const id = body.data.id as number;
    expect((await call(t.app, 'GET', '/api/proxy/dynamic', { token: bob.token })).body.data.items).toEqual([]);
    expect((await call(t.app, 'PUT', `/api/proxy/dynamic/${id}`, { token: bob.token, body: { status: 'disabled' } })).status).toBe(404);
    expect((await call(t.app, 'DELETE', `/api/proxy/dynamic/${id}`, { token: bob.token })).status).toBe(404);
    expect((await call(t.app, 'GET', '/api/proxy/dynamic', { token: alice.token })).body.data.items[0]).toMatchObject({ id, status: 'active' });
  });

  it('usernames are unique across all customers', async () => {
    const a = await signedIn(t);
    const b = await signedIn(t);
    const username = uname();
    expect((await call(t.app, 'POST', '/api/proxy/dynamic', { token: a.token, body: { username, password: 'Secret123' } })).status).toBe(200);
    const dup = await call(t.app, 'POST', '/api/proxy/dynamic', { token: b.token, body: { username, password: 'Secret123' }, lang: 'zh-cn' });
    expect(dup.status).toBe(409);
    expect(dup.body).toMatchObject({ code: 'PROXY_USERNAME_TAKEN', message: '该代理用户名已被占用，请换一个。' });
  });

  it('refuses bad names, passwords and fields with a localized message', async () => {
    const { token, user } = await signedIn(t);
    for (const body of [
      { username: 'ab', password: 'Secret123' },
      { username: 'has-dash', password: 'Secret123' },
      { username: uname(), password: 'short1' },
      { username: uname(), password: 'with:colon1' },
      { username: uname(), password: 'Secret123', limitBytes: 0 },
      { username: uname(), password: 'Secret123', owner: 1 },
    ]) {
      const res = await call(t.app, 'POST', '/api/proxy/dynamic', { token, body, lang: 'zh' });
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.message).toMatch(/[\u4e00-\u9fff]/);
    }
    expect(await t.db.db.selectFrom('proxy_accounts').select('id').where('user_id', '=', user.id).execute()).toEqual([]);
  });

  it("sets, changes and clears a limit of concurrent connections, and refuses a bad one in the caller's language", async () => {
    const { token } = await signedIn(t);
    const created = await call(t.app, 'POST', '/api/proxy/dynamic', { token, body: { username: uname(), password: 'Secret123', maxConnections: 20 } });
    expect(created.body.data).toMatchObject({ maxConnections: 20 });
    const id = created.body.data.id as number;
    const lowered = await call(t.app, 'PUT', `/api/proxy/dynamic/${id}`, { token, body: { maxConnections: 5 } });
    expect(lowered.body.data).toMatchObject({ maxConnections: 5 });
    const row = await t.db.db.selectFrom('proxy_accounts').select('max_connections').where('id', '=', id).executeTakeFirstOrThrow();
    expect(row.max_connections).toBe(5);
    expect((await call(t.app, 'PUT', `/api/proxy/dynamic/${id}`, { token, body: { maxConnections: null } })).body.data).toMatchObject({ maxConnections: null });
    expect((await call(t.app, 'POST', '/api/proxy/dynamic', { token, body: { username: uname(), password: 'Secret123' } })).body.data).toMatchObject({ maxConnections: null });

    for (const [lang, message] of [
      ['en', 'Concurrent connections are a whole number from 1 to 10000; leave empty for the default.'],
      ['zh-cn', '并发连接数须为 1 到 10000 的整数；留空则使用默认设置。'],
      ['zh', '並發連線數須為 1 到 10000 的整數；留空則使用預設設定。'],
    ] as const) {
      for (const maxConnections of [0, 1.5, 10_001]) {
        const res = await call(t.app, 'PUT', `/api/proxy/dynamic/${id}`, { token, body: { maxConnections }, lang });
        expect(res.status).toBe(400);
        expect(res.body.message).toContain(message);
      }
    }
  });

  it('needs a session', async () => {
    expect((await call(t.app, 'GET', '/api/proxy/dynamic')).status).toBe(401);
    expect((await call(t.app, 'POST', '/api/proxy/dynamic', { body: { username: uname(), password: 'Secret123' } })).status).toBe(401);
  });
});

describe('proxy lines export', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp('sqlite', { GATEWAY_PUBLIC_HOST: 'gw.example.test', GATEWAY_HTTP_PORT: '8001', GATEWAY_SOCKS_PORT: '8002', PROXY_CHECK_URL: 'http://127.0.0.1:9/ip' });
  });
  afterAll(() => t.close());

  it('downloads the lines Get Proxy shows, for ones own account only', async () => {
    const { token } = await signedIn(t);
    const username = uname();
    const { body } = await call(t.app, 'POST', '/api/proxy/dynamic', { token, body: { username, password: 'Secret123' } });
    const id = body.data.id as number;
    expect((await call(t.app, 'GET', '/api/proxy/endpoint', { token })).body.data).toEqual({ host: 'gw.example.test', httpPort: 8001, socksPort: 8002, checkUrl: 'http://127.0.0.1:9/ip' });

    const rotating = await t.app.inject({ url: `/api/proxy/dynamic/export?accountId=${id}&country=US&state=ca&count=3`, headers: { authorization: `Bearer ${token}` } });
    expect(rotating.statusCode).toBe(200);
    expect(rotating.headers['content-disposition']).toBe(`attachment; filename="proxies-${username}-http.txt"`);
    expect(rotating.body).toBe(`gw.example.test:8001:${username}-country-us-state-ca:Secret123\n`.repeat(3));

    const sticky = await t.app.inject({ url: `/api/proxy/dynamic/export?accountId=${id}&protocol=socks5&sticky=1&lifeMinutes=30&count=4&format=curl`, headers: { authorization: `Bearer ${token}` } });
    const lines = sticky.body.trim().split('\n');
    expect(lines).toHaveLength(4);
    for (const line of lines) expect(line).toMatch(new RegExp(`^curl -x socks5h://${username}-session-[a-z0-9]{8}-life-30:Secret123@gw\\.example\\.test:8002 http://127\\.0\\.0\\.1:9/ip$`));
    expect(new Set(lines).size).toBe(4);

    // The sessions the screen shows, named: the file holds exactly those lines.
    const named = await t.app.inject({ url: `/api/proxy/dynamic/export?accountId=${id}&sticky=1&count=2&sessions=aaaa1111,bbbb2222`, headers: { authorization: `Bearer ${token}` } });
    expect(named.body).toBe(`gw.example.test:8001:${username}-session-aaaa1111-life-10:Secret123\ngw.example.test:8001:${username}-session-bbbb2222-life-10:Secret123\n`);
    for (const sessions of ['aaaa1111', 'aaaa1111,BBBB2222', 'aaaa1111,bbbb222', 'aaaa1111,,bbbb2222']) {
      const wrong = await t.app.inject({ url: `/api/proxy/dynamic/export?accountId=${id}&sticky=1&count=2&sessions=${sessions}`, headers: { authorization: `Bearer ${token}` } });
      expect(wrong.statusCode).toBe(400);
      expect(wrong.json().message).toContain(text('en', 'validation.sessions'));
    }

    const bad = await t.app.inject({ url: `/api/proxy/dynamic/export?accountId=${id}&count=5000`, headers: { authorization: `Bearer ${token}` } });
    expect(bad.statusCode).toBe(400);
    const other = await signedIn(t);
    const peek = await t.app.inject({ url: `/api/proxy/dynamic/export?accountId=${id}`, headers: { authorization: `Bearer ${other.token}` } });
    expect(peek.statusCode).toBe(404);
  });
});

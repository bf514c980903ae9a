import type net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser, uniqueEmail, uniqueIp } from '../../../test/accounts';
import { call, login } from '../../../test/auth-flows';
import { signedIn } from '../../../test/commerce';
import { HOST, basic, connectTunnel, startHttpOrigin } from '../../../test/gateway-fixtures';
import { text } from '../../../test/i18n';
import { parseMail, startSmtpSink } from '../../../test/smtp-sink';
import { closedWithin, enableDirectEgress, gatewayCustomer, startTestGateway } from '../../../test/store-gateway-kit';
import { DIALECTS, type TestApp, createTestApp } from '../../../test/test-app';
import { LocalCutoffBus } from '../../lib/cutoff-bus';
import type { StoreGateway } from '../../gateway/store/store-gateway';

const MB = 1024 * 1024;
/** The gateway's own timers never fire here: a refusal or a close can only come from the API's event. */
const NEVER = 3_600_000;

describe.each(DIALECTS)('user management on %s', (dialect) => {
  const bus = new LocalCutoffBus();
  let t: TestApp;
  let sink: Awaited<ReturnType<typeof startSmtpSink>>;
  let admin: { user: { id: number }; token: string };
  let gw: StoreGateway;
  let web: Awaited<ReturnType<typeof startHttpOrigin>>;
  const sockets: net.Socket[] = [];

  beforeAll(async () => {
    sink = await startSmtpSink();
    t = await createTestApp(dialect, { SMTP_URL: sink.url }, { cutoffs: bus });
    admin = await signedIn(t, 'admin');
    await enableDirectEgress(t, admin.token);
    web = await startHttpOrigin();
    gw = await startTestGateway(t, { refreshMs: NEVER, flushMs: NEVER, enforceMs: NEVER, cutoffs: bus });
  });
  afterAll(async () => {
    for (const s of sockets) s.destroy();
    await gw?.stop();
    await web?.close();
    await t?.close();
    await sink?.close();
  });

  const as = (token: string | undefined, method: 'GET' | 'POST', url: string, body?: object, lang?: string) =>
    call(t.app, method, url, { token, body: body as never, lang });
  const tunnel = async (username: string) => {
    const r = await connectTunnel(gw.gateway.httpPort, `${HOST}:${web.port}`, basic(username, 'Secret123'));
    sockets.push(r.socket);
    return r;
  };

  it('only admins reach the user routes: 401 without a session, 403 for a customer', async () => {
    const customer = await signedIn(t);
    const routes: Array<['GET' | 'POST', string, object?]> = [
      ['GET', '/api/manage/user'],
      ['GET', `/api/manage/user/${customer.user.id}`],
      ['POST', `/api/manage/user/${customer.user.id}`, { remark: 'x' }],
      ['POST', '/api/manage/reset-pass', { userId: customer.user.id }],
      ['POST', '/api/manage/user-bulk', { action: 'disable', ids: [customer.user.id] }],
    ];
    for (const [method, url, body] of routes) {
      expect((await as(undefined, method, url, body)).status).toBe(401);
      const forbidden = await as(customer.token, method, url, body);
      expect([forbidden.status, forbidden.body.code]).toEqual([403, 'FORBIDDEN']);
    }
  });

  it('lists users with their figures, filtered and sorted', async () => {
    const tag = `flt${Date.now()}`;
    const referrer = await createUser(t, { email: uniqueEmail(`${tag}-ref`), password: 'Passw0rdOK', isDistributor: true });
    const a = await gatewayCustomer(t, admin.token, [[5 * MB, 30]]);
    await t.db.db.updateTable('users').set({ email: `${tag}-a@example.com`, referrer_id: referrer.id, channel_key: 'qd', channel_value: tag }).where('id', '=', a.user.id).execute();
    const b = await createUser(t, { email: `${tag}-b@example.com`, password: 'Passw0rdOK', account: `${tag}b` });

    const list = await as(admin.token, 'GET', `/api/manage/user?email=${tag}-&sort=createdAt&order=asc`);
    expect(list.status).toBe(200);
    expect(list.body.data.items.map((u: { id: number }) => u.id)).toEqual([referrer.id, a.user.id, b.id]);
    const rowA = list.body.data.items[1];
    expect(rowA).toMatchObject({ referrerId: referrer.id, referrerEmail: referrer.email, balanceBytes: 5 * MB, paidTotal: 0, activeStaticIps: 0, commissionRate: null, remark: null });
    // Signed in once through the API (signedIn): the last login's IP is that login's.
    expect(rowA.lastLoginIp).toMatch(/^10\./);
    expect(rowA.lastLoginAt).not.toBeNull();

    const ids = async (query: string) => (await as(admin.token, 'GET', `/api/manage/user?email=${tag}-&${query}`)).body.data.items.map((u: { id: number }) => u.id);
    expect(await ids(`account=${tag}`)).toEqual([b.id]);
    expect(await ids('distributor=true')).toEqual([referrer.id]);
    expect(await ids(`referrerId=${referrer.id}`)).toEqual([a.user.id]);
    expect(await ids(`channelKey=qd&channelValue=${tag}`)).toEqual([a.user.id]);
    expect(await ids('status=disabled')).toEqual([]);
    expect(await ids('from=2000-01-01&to=2000-01-02')).toEqual([]);
    expect(await ids(`ids=${b.id},${referrer.id}`)).toEqual([b.id, referrer.id]);
    // Never signed in: last whichever way the column goes.
    expect(await ids('sort=lastLoginAt&order=desc')).toEqual([a.user.id, b.id, referrer.id]);
    expect(await ids('sort=lastLoginAt&order=asc')).toEqual([a.user.id, referrer.id, b.id]);
    expect((await ids('sort=paidTotal&order=desc&pageSize=1'))).toHaveLength(1);

    const bad = await as(admin.token, 'GET', '/api/manage/user?sort=balance&from=yesterday', undefined, 'zh-cn');
    expect([bad.status, bad.body.code]).toEqual([400, 'VALIDATION_FAILED']);
    expect(bad.body.message).toContain(text('zh-cn', 'validation.date'));
  });

  it('exports the filtered or chosen users as CSV with headers in the chosen language', async () => {
    const tag = `csv${Date.now()}`;
    const u1 = await createUser(t, { email: `${tag}-1@example.com`, password: 'Passw0rdOK' });
    const u2 = await createUser(t, { email: `${tag}-2@example.com`, password: 'Passw0rdOK' });
    const ticket = async () => (await as(admin.token, 'POST', '/api/export-ticket', {})).body.data.ticket as string;

    const all = await t.app.inject({ method: 'GET', url: `/api/manage/user?email=${tag}&lang=zh&token=${await ticket()}` });
    expect(all.statusCode).toBe(200);
    expect(all.headers['content-type']).toContain('text/csv');
    const lines = all.body.replace(/^\uFEFF/, '').trim().split('\r\n');
    expect(lines[0]).toContain(text('zh', 'csv.users.email'));
    expect(lines[0]).toContain(text('zh', 'csv.users.paidTotal'));
    expect(lines.slice(1).map((l) => l.split(',')[1]).sort()).toEqual([u1.email, u2.email]);

    const chosen = await t.app.inject({ method: 'GET', url: `/api/manage/user?ids=${u2.id}&token=${await ticket()}` });
    expect(chosen.body.trim().split('\r\n').slice(1).map((l) => l.split(',')[1])).toEqual([u2.email]);
  });

  it('shows one user with grants, accounts, orders, logins and the audit about them', async () => {
    const c = await gatewayCustomer(t, admin.token, [[3 * MB, 30]]);
    expect((await as(admin.token, 'POST', `/api/manage/user/${c.user.id}`, { remark: 'VIP' })).status).toBe(200);
    const res = await as(admin.token, 'GET', `/api/manage/user/${c.user.id}`);
    expect(res.status).toBe(200);
    const d = res.body.data;
    expect(d.user).toMatchObject({ id: c.user.id, remark: 'VIP', balanceBytes: 3 * MB });
    expect(d.grants).toHaveLength(1);
    expect(d.proxyAccounts.map((a: { username: string }) => a.username)).toEqual([c.username]);
    expect(d.orders).toHaveLength(1);
    expect(d.orders[0]).toMatchObject({ kind: 'manual-recharge', status: 'paid' });
    expect(d.logins[0]).toMatchObject({ result: 'success' });
    expect(d.audit.map((a: { action: string }) => a.action)).toEqual(['user.update', 'user.recharge']);
    expect(d.audit[0]).toMatchObject({ actorId: admin.user.id, before: { remark: null }, after: { remark: 'VIP' } });

    expect((await as(admin.token, 'GET', '/api/manage/user/999999')).body.code).toBe('USER_UNKNOWN');
  });

  it('makes a user a distributor with their own rate, audited, and refuses a rate out of range in the caller’s language', async () => {
    const c = await signedIn(t);
    const res = await as(admin.token, 'POST', `/api/manage/user/${c.user.id}`, { isDistributor: true, commissionRate: 20 });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ isDistributor: true, commissionRate: 20 });
    const back = await as(admin.token, 'POST', `/api/manage/user/${c.user.id}`, { commissionRate: null });
    expect(back.body.data.commissionRate).toBeNull();
    const audit = (await as(admin.token, 'GET', `/api/manage/user/${c.user.id}`)).body.data.audit;
    expect(audit.map((a: { after: unknown }) => a.after)).toEqual([{ commissionRate: null }, { isDistributor: true, commissionRate: 20 }]);

    for (const body of [{ commissionRate: 101 }, { commissionRate: -1 }, { status: 'gone' }, { extra: 1 }]) {
      const bad = await as(admin.token, 'POST', `/api/manage/user/${c.user.id}`, body, 'zh');
      expect([bad.status, bad.body.code]).toEqual([400, 'VALIDATION_FAILED']);
    }
    const bad = await as(admin.token, 'POST', `/api/manage/user/${c.user.id}`, { commissionRate: 150 }, 'zh');
    expect(bad.body.message).toContain(text('zh', 'validation.commissionRate'));
  });

  it('disabling signs the user out, refuses their login, and cuts their live gateway tunnel at once', async () => {
    const c = await gatewayCustomer(t, admin.token, [[64 * MB, 30]]);
    await gw.cache.refresh();
    const open = await tunnel(c.username);
    expect(open.status).toBe(200);
    const closing = closedWithin(open.socket, 5000);

    const res = await as(admin.token, 'POST', `/api/manage/user/${c.user.id}`, { status: 'disabled' });
    expect([res.status, res.body.data.status]).toEqual([200, 'disabled']);
    expect(await closing).not.toBe(Infinity);
    const again = await tunnel(c.username);
    expect([again.status, again.headers['x-gateway-reason']]).toEqual([403, 'ACCOUNT_DISABLED']);
    expect((await as(c.token, 'GET', '/api/user')).status).toBe(401);
    const relogin = await login(t.app, c.user.email, 'Passw0rdOK', uniqueIp());
    expect([relogin.status, relogin.body.code]).toEqual([403, 'ACCOUNT_DISABLED']);

    expect((await as(admin.token, 'POST', `/api/manage/user/${c.user.id}`, { status: 'active' })).status).toBe(200);
    expect((await login(t.app, c.user.email, 'Passw0rdOK', uniqueIp())).status).toBe(200);
    // Enabled again: the event makes the gateway re-read the user, so the line works without any polling.
    let admitted = 0;
    for (let i = 0; i < 50 && admitted !== 200; i += 1) admitted = (await tunnel(c.username)).status;
    expect(admitted).toBe(200);
  });

  it('resets a password to one given or made up, signs the user out and mails them', async () => {
    const c = await signedIn(t);
    const given = await as(admin.token, 'POST', '/api/manage/reset-pass', { userId: c.user.id, password: 'NewPass123' }, 'en');
    expect(given.status).toBe(200);
    expect(given.body).toEqual({ data: {}, message: text('en', 'messages.userPasswordReset') });
    expect((await as(c.token, 'GET', '/api/user')).status).toBe(401);
    expect((await login(t.app, c.user.email, 'NewPass123', uniqueIp())).status).toBe(200);

    const made = await as(admin.token, 'POST', '/api/manage/reset-pass', { userId: c.user.id });
    const password = made.body.data.password as string;
    expect(password).toMatch(/^(?=.*[A-Za-z])(?=.*[0-9]).{16}$/);
    expect((await login(t.app, c.user.email, password, uniqueIp())).status).toBe(200);

    const mails = sink.messages.filter((m) => m.to.includes(c.user.email)).map((m) => parseMail(m.raw));
    expect(mails).toHaveLength(2);
    expect(mails[0]!.subject).toBe(text('en', 'mail.adminResetSubject', { app: t.config.APP_NAME }));
    expect(mails[0]!.text).not.toContain('NewPass123');

    const weak = await as(admin.token, 'POST', '/api/manage/reset-pass', { userId: c.user.id, password: 'short' }, 'zh-cn');
    expect([weak.status, weak.body.message]).toEqual([400, expect.stringContaining(text('zh-cn', 'validation.password'))]);
    expect((await as(admin.token, 'POST', '/api/manage/reset-pass', { userId: 999999 })).body.code).toBe('USER_UNKNOWN');
  });

  it('bulk disables and enables by ids or by filter, skipping the admin themselves', async () => {
    const tag = `blk${Date.now()}`;
    const users = await Promise.all([1, 2, 3].map((i) => createUser(t, { email: `${tag}-${i}@example.com`, password: 'Passw0rdOK' })));
    const byIds = await as(admin.token, 'POST', '/api/manage/user-bulk', { action: 'disable', ids: [users[0]!.id, users[1]!.id, admin.user.id] });
    expect(byIds.body.data).toEqual({ affected: 2, skipped: 1 });
    const byFilter = await as(admin.token, 'POST', '/api/manage/user-bulk', { action: 'disable', filter: { email: tag } });
    expect(byFilter.body.data).toEqual({ affected: 1, skipped: 0 });
    const enabled = await as(admin.token, 'POST', '/api/manage/user-bulk', { action: 'enable', filter: { email: tag, status: 'disabled' } });
    expect(enabled.body.data).toEqual({ affected: 3, skipped: 0 });
    const audit = (await as(admin.token, 'GET', `/api/manage/user/${users[0]!.id}`)).body.data.audit;
    expect(audit.map((a: { after: unknown }) => a.after)).toEqual([{ status: 'active', disabledBy: null }, { status: 'disabled', disabledBy: 'admin' }]);

    for (const body of [{ action: 'disable' }, { action: 'disable', ids: [1], filter: {} }, { action: 'disable', ids: [] }, { action: 'wipe', ids: [1] }]) {
      const bad = await as(admin.token, 'POST', '/api/manage/user-bulk', body, 'zh');
      expect([bad.status, bad.body.code]).toEqual([400, 'VALIDATION_FAILED']);
    }
  });

  it('an admin cannot disable or demote themselves, and two admins demoting each other at once leave one', async () => {
    const self = await as(admin.token, 'POST', `/api/manage/user/${admin.user.id}`, { role: 'customer' }, 'zh-cn');
    expect([self.status, self.body]).toEqual([409, { code: 'ADMIN_SELF', message: text('zh-cn', 'errors.ADMIN_SELF') }]);
    expect((await as(admin.token, 'POST', `/api/manage/user/${admin.user.id}`, { status: 'disabled' })).body.code).toBe('ADMIN_SELF');

    const a = await signedIn(t, 'admin');
    const b = await signedIn(t, 'admin');
    // Only these two stay admins, so each demotion would leave the other as the last one.
    await t.db.db.updateTable('users').set({ role: 'customer' }).where('role', '=', 'admin').where('id', 'not in', [a.user.id, b.user.id]).execute();
    const [ab, ba] = await Promise.all([
      as(a.token, 'POST', `/api/manage/user/${b.user.id}`, { role: 'customer' }),
      as(b.token, 'POST', `/api/manage/user/${a.user.id}`, { role: 'customer' }),
    ]);
    const codes = [ab, ba].map((r) => r.body.code ?? r.status).sort();
    // One demotion passes; the other finds its caller already demoted (403) or itself the last admin (409).
    expect(codes[0]).toBe(200);
    expect(['ADMIN_LAST', 'FORBIDDEN']).toContain(codes[1]);
    const left = await t.db.db.selectFrom('users').select('id').where('role', '=', 'admin').where('status', '=', 'active').execute();
    expect(left).toHaveLength(1);

    const last = left[0]!.id;
    const lastToken = last === a.user.id ? a.token : b.token;
    const other = await signedIn(t);
    const bulk = await as(lastToken, 'POST', '/api/manage/user-bulk', { action: 'disable', ids: [last, other.user.id] });
    expect(bulk.body.data).toEqual({ affected: 1, skipped: 1 });
    await t.db.db.updateTable('users').set({ role: 'admin' }).where('id', '=', admin.user.id).execute();
  });
});

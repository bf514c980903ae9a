import type { LoginResult } from '@resi/contract';
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser, uniqueEmail, uniqueIp } from '../../../test/accounts';
import { call, login, newCaptcha } from '../../../test/auth-flows';
import { signedIn } from '../../../test/commerce';
import { text } from '../../../test/i18n';
import { CAPTCHA, DIALECTS, type TestApp, createTestApp } from '../../../test/test-app';

const BOM = Buffer.from([0xef, 0xbb, 0xbf]);
type Row = Record<string, unknown>;

describe.each(DIALECTS)('login analysis on %s', (dialect) => {
  let t: TestApp;
  let admin: { token: string; user: { id: number } };
  let customer: { token: string };
  const today = () => t.clock.now().toISOString().slice(0, 10);

  const logs = (query: Record<string, string | number>, opts: { token?: string; lang?: string } = {}) =>
    call(t.app, 'GET', `/api/manage/logs?${new URLSearchParams(Object.entries(query).map(([k, v]): [string, string] => [k, String(v)]))}`, { token: opts.token ?? admin.token, lang: opts.lang });
  const ticket = async () => (await call(t.app, 'POST', '/api/export-ticket', { token: admin.token, body: {} })).body.data.ticket as string;
  const seed = (rows: Array<{ at: string; account: string; ip: string | null; result: LoginResult; userId?: number | null; userAgent?: string }>) =>
    t.db.db
      .insertInto('login_logs')
      .values(rows.map((r) => ({ created_at: r.at, account: r.account, ip: r.ip, result: r.result, user_id: r.userId ?? null, user_agent: r.userAgent ?? 'Seed/1.0' })))
      .execute();

  beforeAll(async () => {
    t = await createTestApp(dialect);
    admin = await signedIn(t, 'admin');
    customer = await signedIn(t);
  });
  afterAll(() => t.close());

  it('lists every kind of attempt made through the API with its user, account as typed, IP, user agent and result, newest first', async () => {
    const ip = uniqueIp();
    const headers = { 'user-agent': 'Analysis/2.0' };
    const email = uniqueEmail('kinds');
    const user = await createUser(t, { email, password: 'secret123', account: `kinds${process.pid}`.slice(0, 32) });
    const disabled = await createUser(t, { email: uniqueEmail('off'), password: 'secret123', status: 'disabled' });
    const ghost = uniqueEmail('ghost');
    const attempt = async (account: string, password: string, captcha = CAPTCHA) =>
      call(t.app, 'POST', '/api/login', { body: { account, password, captchaId: await newCaptcha(t.app), captcha }, ip, headers });

    expect((await attempt(email, 'secret123', 'zzzz')).body.code).toBe('CAPTCHA_INVALID');
    expect((await attempt(ghost, 'secret123')).body.code).toBe('LOGIN_FAILED');
    expect((await attempt(disabled.email, 'secret123')).body.code).toBe('ACCOUNT_DISABLED');
    expect((await attempt(` ${user.account!.toUpperCase()} `, 'secret123')).status).toBe(200);
    expect((await call(t.app, 'POST', '/api/login', { body: { account: email, password: '' }, ip, headers })).status).toBe(400);
    for (let i = 0; i < 5; i++) expect((await attempt(email, 'wrong-pass1')).body.code).toBe('LOGIN_FAILED');
    expect((await attempt(email, 'secret123')).body.code).toBe('LOGIN_LOCKED');

    const res = await logs({ ip });
    expect(res.status).toBe(200);
    const items = res.body.data.items as Row[];
    expect(res.body.data.total).toBe(11);
    expect(items.map((r) => r.result)).toEqual(['locked', ...Array(5).fill('bad-password'), 'invalid', 'success', 'disabled', 'unknown-account', 'bad-captcha']);
    for (const r of items) expect(r).toMatchObject({ ip, userAgent: 'Analysis/2.0', at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/) });
    expect(items[0]).toEqual({ id: expect.any(Number), at: expect.any(String), userId: user.id, email, account: email, ip, userAgent: 'Analysis/2.0', result: 'locked' });
    expect(items[7]).toMatchObject({ userId: user.id, email, account: user.account, result: 'success' });
    expect(items[8]).toMatchObject({ userId: disabled.id, email: disabled.email, result: 'disabled' });
    expect(items[9]).toMatchObject({ userId: null, email: null, account: ghost, result: 'unknown-account' });
    expect(items[10]).toMatchObject({ userId: user.id, email, result: 'bad-captcha' });
    // The IP's failures lead the summary: ten failures of three accounts (the success is not one).
    expect(res.body.data.summary.topFailingIps).toEqual([{ ip, failures: 10, accounts: 3, lastAt: items[0]!.at }]);
  });

  it('filters by email inside the user or the account typed, by IP, by result and by dates', async () => {
    const ip = uniqueIp();
    const other = uniqueIp();
    const email = uniqueEmail('filtered');
    const user = await createUser(t, { email, password: 'secret123', account: `filt${process.pid}`.slice(0, 32) });
    const d = today();
    await seed([
      { at: `${d}T01:00:00.000Z`, account: user.account!, ip, result: 'bad-password', userId: user.id },
      { at: `${d}T02:00:00.000Z`, account: email, ip: other, result: 'success', userId: user.id },
      { at: `${d}T03:00:00.000Z`, account: `x-${email}`, ip, result: 'unknown-account' },
      { at: '2026-01-05T12:00:00.000Z', account: email, ip, result: 'bad-password', userId: user.id },
    ]);
    const accounts = async (q: Record<string, string>) => ((await logs(q)).body.data.items as Row[]).map((r) => `${r.account}@${r.result}`);

    // The user's email matches rows typed with the account name; the account typed matches rows of no user.
    expect(await accounts({ email: email.toUpperCase() })).toEqual([`x-${email}@unknown-account`, `${email}@success`, `${user.account}@bad-password`]);
    expect(await accounts({ email: `filt${process.pid}`.slice(0, 32) })).toEqual([`${user.account}@bad-password`]);
    expect(await accounts({ ip })).toEqual([`x-${email}@unknown-account`, `${user.account}@bad-password`]);
    expect(await accounts({ email, result: 'success' })).toEqual([`${email}@success`]);
    expect(await accounts({ email, ip, result: 'bad-password' })).toEqual([`${user.account}@bad-password`]);
    expect(await accounts({ email, from: '2026-01-05', to: '2026-01-05' })).toEqual([`${email}@bad-password`]);
    expect(await accounts({ email, from: '2026-01-06', to: '2026-01-31' })).toEqual([]);
    // Without dates: the last 30 days up to today.
    const res = await logs({ email });
    expect(res.body.data.summary).toMatchObject({ to: d, from: new Date(Date.parse(`${d}T00:00:00Z`) - 29 * 86_400_000).toISOString().slice(0, 10) });
    expect(res.body.data.summary.days).toHaveLength(30);

    const paged = await logs({ email, page: 2, pageSize: 2 });
    expect(paged.body.data).toMatchObject({ total: 3, page: 2, pageSize: 2 });
    expect((paged.body.data.items as Row[]).map((r) => r.account)).toEqual([user.account]);
  });

  it('sums attempts and failures per day and finds the failing IPs and the accounts tried from many IPs', async () => {
    const [a, b, c] = [uniqueIp(), uniqueIp(), uniqueIp()];
    const victim = `victim${process.pid}`;
    const rows: Parameters<typeof seed>[0] = [];
    // 2026-02-01: 4 attempts, 3 failed; 2026-02-02: none; 2026-02-03: 3 attempts, 1 failed.
    rows.push({ at: '2026-02-01T00:00:00.000Z', account: victim, ip: a, result: 'bad-password' });
    rows.push({ at: '2026-02-01T10:00:00.000Z', account: victim, ip: b, result: 'bad-password' });
    rows.push({ at: '2026-02-01T11:00:00.000Z', account: 'spray1', ip: a, result: 'unknown-account' });
    rows.push({ at: '2026-02-01T23:59:59.999Z', account: 'calm', ip: c, result: 'success' });
    rows.push({ at: '2026-02-03T05:00:00.000Z', account: victim, ip: c, result: 'success' });
    rows.push({ at: '2026-02-03T06:00:00.000Z', account: 'calm', ip: c, result: 'success' });
    rows.push({ at: '2026-02-03T07:00:00.000Z', account: 'spray2', ip: a, result: 'bad-captcha' });
    // Outside the window on both sides.
    rows.push({ at: '2026-01-31T23:59:59.999Z', account: victim, ip: uniqueIp(), result: 'bad-password' });
    rows.push({ at: '2026-02-04T00:00:00.000Z', account: victim, ip: uniqueIp(), result: 'bad-password' });
    await seed(rows);

    const res = await logs({ from: '2026-02-01', to: '2026-02-03' });
    expect(res.status).toBe(200);
    const { summary, total } = res.body.data;
    expect(total).toBe(7);
    expect(summary).toEqual({
      from: '2026-02-01',
      to: '2026-02-03',
      days: [
        { date: '2026-02-01', attempts: 4, failures: 3 },
        { date: '2026-02-02', attempts: 0, failures: 0 },
        { date: '2026-02-03', attempts: 3, failures: 1 },
      ],
      topFailingIps: [
        { ip: a, failures: 3, accounts: 3, lastAt: '2026-02-03T07:00:00.000Z' },
        { ip: b, failures: 1, accounts: 1, lastAt: '2026-02-01T10:00:00.000Z' },
      ],
      spreadAccounts: [{ account: victim, ips: 2, failures: 2, lastAt: '2026-02-01T10:00:00.000Z' }],
    });
    // The summary follows the filter.
    const one = (await logs({ from: '2026-02-01', to: '2026-02-03', result: 'bad-password' })).body.data.summary;
    expect(one.days.map((x: Row) => x.attempts)).toEqual([2, 0, 0]);
    // One failure each: the latest first.
    expect(one.topFailingIps.map((x: Row) => x.ip)).toEqual([b, a]);
    expect(one.spreadAccounts).toEqual([{ account: victim, ips: 2, failures: 2, lastAt: '2026-02-01T10:00:00.000Z' }]);
  });

  it('exports every filtered row as CSV with a BOM, headers in the chosen language and formula cells escaped', async () => {
    const ip = uniqueIp();
    const rows: Parameters<typeof seed>[0] = [];
    for (let i = 0; i < 30; i++) rows.push({ at: `2026-03-01T00:00:${String(i).padStart(2, '0')}.000Z`, account: `bulk${i}`, ip, result: 'unknown-account' });
    rows.push({ at: '2026-03-01T01:00:00.000Z', account: '=HYPERLINK("http://evil.example")', ip, result: 'unknown-account', userAgent: '+cmd' });
    rows.push({ at: '2026-03-01T02:00:00.000Z', account: admin.user.id.toString(), ip: uniqueIp(), result: 'success' });
    await seed(rows);

    const res = await t.app.inject({ method: 'GET', url: '/api/manage/logs', query: { ip, from: '2026-03-01', to: '2026-03-01', page: '2', lang: 'zh-cn', token: await ticket() } });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(res.headers['content-disposition']).toMatch(/^attachment; filename="logins-\d{8}-\d{6}\.csv"$/);
    expect(res.rawPayload.subarray(0, 3).equals(BOM)).toBe(true);
    const parsed = parse(res.rawPayload, { bom: true, columns: true }) as Record<string, string>[];
    expect(parsed).toHaveLength(31);
    expect(Object.keys(parsed[0]!)).toEqual(['时间 (UTC)', '用户 ID', '用户邮箱', '输入的账户', 'IP', '浏览器标识', '结果', '结果（代码）']);
    expect(parsed[0]).toEqual({ '时间 (UTC)': '2026-03-01T01:00:00.000Z', '用户 ID': '', 用户邮箱: '', 输入的账户: `'=HYPERLINK("http://evil.example")`, IP: ip, 浏览器标识: "'+cmd", 结果: '账户不存在', '结果（代码）': 'unknown-account' });
    expect(parsed[30]).toMatchObject({ 输入的账户: 'bulk0' });

    const audit = await t.db.db.selectFrom('audit_logs').selectAll().where('action', '=', 'export.logins').execute();
    expect(audit).toHaveLength(1);
    expect(JSON.parse(audit[0]!.after!)).toMatchObject({ filters: { ip, from: '2026-03-01', to: '2026-03-01' }, rows: 31 });

    const en = await t.app.inject({ method: 'GET', url: '/api/manage/logs', query: { ip, from: '2026-03-01', to: '2026-03-01', lang: 'en', token: await ticket() } });
    expect(en.body.split('\r\n')[0]).toBe('\ufeffTime (UTC),User ID,User email,Account as typed,IP,User agent,Result,Result (code)');
  });

  it('is for admins only: a customer gets 403 and nobody signed in 401', async () => {
    const asCustomer = await logs({}, { token: customer.token });
    expect(asCustomer.status).toBe(403);
    expect(asCustomer.body.code).toBe('FORBIDDEN');
    const anonymous = await call(t.app, 'GET', '/api/manage/logs');
    expect(anonymous.status).toBe(401);
    expect(anonymous.body.code).toBe('UNAUTHENTICATED');
  });

  it('refuses a broken filter with a localized 400 and exports nothing', async () => {
    const broken = async (query: Record<string, string>, lang: 'en' | 'zh-cn' | 'zh', detail: string) => {
      const res = await logs(query, { lang });
      expect(res.status, JSON.stringify(query)).toBe(400);
      expect(res.body.code).toBe('VALIDATION_FAILED');
      expect(res.body.message).toContain(detail);
    };
    await broken({ from: '2026-02-03', to: '2026-02-01' }, 'zh-cn', text('zh-cn', 'validation.usageRangeOrder'));
    await broken({ from: '2026-02-30' }, 'zh', text('zh', 'validation.date'));
    await broken({ to: 'yesterday' }, 'en', text('en', 'validation.date'));
    await broken({ result: 'failed' }, 'en', text('en', 'validation.loginResult'));
    await broken({ from: '2026-01-01', to: '2026-04-03' }, 'en', text('en', 'validation.usageRangeSpan', { days: 92 }));

    const before = await t.db.db.selectFrom('audit_logs').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
    const res = await t.app.inject({ method: 'GET', url: '/api/manage/logs', query: { from: '2026-02-03', to: '2026-02-01', lang: 'zh', token: await ticket() } });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: 'VALIDATION_FAILED', message: expect.stringContaining(text('zh', 'validation.usageRangeOrder')) });
    const after = await t.db.db.selectFrom('audit_logs').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
    expect(Number(after.n)).toBe(Number(before.n));
  });

  it('counts both an unknown account and a wrong password towards the lockout', async () => {
    const ip = uniqueIp();
    const email = uniqueEmail('mixed');
    // Three tries before the account existed, two after: five failures of this name from this IP.
    const at = t.clock.now().toISOString();
    await seed([0, 1, 2].map(() => ({ at, account: email, ip, result: 'unknown-account' as const })));
    await createUser(t, { email, password: 'secret123' });
    for (let i = 0; i < 2; i++) expect((await login(t.app, email, 'wrong-pass1', ip)).body.code).toBe('LOGIN_FAILED');
    expect((await login(t.app, email, 'secret123', ip)).body.code).toBe('LOGIN_LOCKED');
  });
});

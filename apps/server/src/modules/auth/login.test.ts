import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser, uniqueEmail, uniqueIp } from '../../../test/accounts';
import { call, login, newCaptcha } from '../../../test/auth-flows';
import { text } from '../../../test/i18n';
import { DIALECTS, type TestApp, createTestApp } from '../../../test/test-app';
import { MINUTE } from '../../lib/clock';

describe.each(DIALECTS)('login on %s', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(dialect);
  });
  afterAll(async () => {
    await t.close();
  });

  const failed = { code: 'LOGIN_FAILED', message: text('en', 'errors.LOGIN_FAILED') };
  const logsOf = (account: string) =>
    t.db.db.selectFrom('login_logs').selectAll().where('account', '=', account.toLowerCase()).orderBy('id').execute();

  it('logs in by email in any case, and by account name in any case', async () => {
    const email = uniqueEmail('both');
    const account = `Carol${process.pid}`.slice(0, 32);
    const user = await createUser(t, { email, password: 'secret123', account });
    const byEmail = await login(t.app, email.toUpperCase(), 'secret123', uniqueIp());
    expect(byEmail.status).toBe(200);
    expect(byEmail.body.message).toBe(text('en', 'messages.loggedIn'));
    expect(byEmail.body.token).toMatch(/^[\w-]{43}$/);
    expect(byEmail.body.data).toMatchObject({ id: user.id, email, lastLoginAt: expect.any(String) });
    const byName = await login(t.app, account.toUpperCase(), 'secret123', uniqueIp());
    expect(byName.status).toBe(200);
    expect(byName.body.data.id).toBe(user.id);
    expect((await call(t.app, 'GET', '/api/user', { token: byName.body.token })).body.data.id).toBe(user.id);
  });

  it('answers a wrong password and an unknown user with the same LOGIN_FAILED', async () => {
    const email = uniqueEmail('wrong');
    await createUser(t, { email, password: 'secret123' });
    const wrong = await login(t.app, email, 'secret124', uniqueIp());
    const unknown = await login(t.app, uniqueEmail('ghost'), 'secret123', uniqueIp());
    expect([wrong.status, unknown.status]).toEqual([400, 400]);
    expect(wrong.body).toEqual(failed);
    expect(unknown.body).toEqual(failed);
  });

  it('locks an account name from one IP for 15 minutes after 5 failures, even for the right password', async () => {
    const email = uniqueEmail('lock');
    await createUser(t, { email, password: 'secret123' });
    const ip = uniqueIp();
    for (let i = 0; i < 5; i++) expect((await login(t.app, email, 'wrong-pass1', ip)).body).toEqual(failed);
    const locked = await login(t.app, email, 'secret123', ip);
    expect(locked.status).toBe(429);
    expect(locked.body).toEqual({ code: 'LOGIN_LOCKED', message: text('en', 'errors.LOGIN_LOCKED', { minutes: 15 }) });
    expect(locked.body.token).toBeUndefined();

    t.clock.advance(14 * MINUTE);
    const stillLocked = await login(t.app, email, 'secret123', ip);
    expect(stillLocked.body).toEqual({ code: 'LOGIN_LOCKED', message: text('en', 'errors.LOGIN_LOCKED', { minutes: 1 }) });
    t.clock.advance(1 * MINUTE);
    expect((await login(t.app, email, 'secret123', ip)).status).toBe(200);
  });

  it('a locked pair does not lock the victim out: the owner logs in from another IP', async () => {
    const email = uniqueEmail('victim');
    await createUser(t, { email, password: 'secret123' });
    const attacker = uniqueIp();
    for (let i = 0; i < 5; i++) await login(t.app, email, 'wrong-pass1', attacker);
    expect((await login(t.app, email, 'secret123', attacker)).body.code).toBe('LOGIN_LOCKED');
    const owner = await login(t.app, email, 'secret123', uniqueIp());
    expect(owner.status).toBe(200);
    expect(owner.body.token).toEqual(expect.any(String));
  });

  it('four failures do not lock', async () => {
    const email = uniqueEmail('four');
    await createUser(t, { email, password: 'secret123' });
    const ip = uniqueIp();
    for (let i = 0; i < 4; i++) await login(t.app, email, 'wrong-pass1', ip);
    expect((await login(t.app, email, 'secret123', ip)).status).toBe(200);
  });

  it('failures older than 15 minutes do not count', async () => {
    const email = uniqueEmail('window');
    await createUser(t, { email, password: 'secret123' });
    const ip = uniqueIp();
    for (let i = 0; i < 4; i++) await login(t.app, email, 'wrong-pass1', ip);
    t.clock.advance(15 * MINUTE);
    await login(t.app, email, 'wrong-pass1', ip);
    expect((await login(t.app, email, 'secret123', ip)).status).toBe(200);
  });

  it('locks an IP after 20 failures across accounts (spraying); other IPs still log in', async () => {
    const ip = uniqueIp();
    const email = uniqueEmail('sprayed');
    await createUser(t, { email, password: 'secret123' });
    for (let i = 0; i < 19; i++) expect((await login(t.app, uniqueEmail('spray'), 'wrong-pass1', ip)).body).toEqual(failed);
    // 19 failures from this IP, none for this account: still open.
    expect((await login(t.app, email, 'secret123', ip)).status).toBe(200);
    expect((await login(t.app, uniqueEmail('spray'), 'wrong-pass1', ip)).body).toEqual(failed);
    const fromLockedIp = await login(t.app, email, 'secret123', ip);
    expect(fromLockedIp.status).toBe(429);
    expect(fromLockedIp.body).toEqual({ code: 'LOGIN_LOCKED', message: text('en', 'errors.LOGIN_LOCKED', { minutes: 15 }) });
    expect((await login(t.app, email, 'secret123', uniqueIp())).status).toBe(200);
    t.clock.advance(15 * MINUTE);
    expect((await login(t.app, email, 'secret123', ip)).status).toBe(200);
  });

  it('writes one login log row per attempt with its result, user, IP and user agent', async () => {
    const email = uniqueEmail('logged');
    const user = await createUser(t, { email, password: 'secret123' });
    const ip = uniqueIp();
    const headers = { 'user-agent': 'LogTest/1.0' };
    const attempt = async (password: string, captcha = '2468') =>
      call(t.app, 'POST', '/api/login', { body: { account: email, password, captchaId: await newCaptcha(t.app), captcha }, ip, headers });

    expect((await attempt('secret123', 'zzzz')).body.code).toBe('CAPTCHA_INVALID');
    expect((await attempt('wrong-pass1')).body.code).toBe('LOGIN_FAILED');
    expect((await attempt('secret123')).status).toBe(200);
    for (let i = 0; i < 4; i++) await attempt('wrong-pass1');
    expect((await attempt('secret123')).body.code).toBe('LOGIN_LOCKED');

    const rows = await logsOf(email);
    expect(rows.map((r) => r.result)).toEqual(['bad-captcha', 'bad-password', 'success', 'bad-password', 'bad-password', 'bad-password', 'bad-password', 'locked']);
    // Every row names the user, also those stopped before the password was checked.
    for (const r of rows) expect(r).toMatchObject({ user_id: user.id, account: email, ip, user_agent: 'LogTest/1.0', created_at: expect.any(String) });

    // An unknown name is logged without a user; the pair lock above is not an IP lock.
    const ghost = uniqueEmail('ghostlog');
    await login(t.app, ghost, 'secret123', ip);
    expect((await logsOf(ghost)).map((r) => [r.result, r.user_id, r.ip])).toEqual([['unknown-account', null, ip]]);
  });

  it('logs a refused body that names an account as result invalid, without counting it as a failure', async () => {
    const email = uniqueEmail('invalid');
    const user = await createUser(t, { email, password: 'secret123' });
    const ip = uniqueIp();
    const headers = { 'user-agent': 'InvalidTest/1.0' };
    const bodies = [
      { account: ` ${email.toUpperCase()} `, password: 'secret123' },
      { account: email, password: 'secret123', captchaId: 'x', captcha: '2468', extra: true },
      { account: email, password: '', captchaId: 'x', captcha: '2468' },
      { account: email, password: 'x'.repeat(65), captchaId: 'x', captcha: '2468' },
      { account: email, password: 'secret123', captchaId: 'x', captcha: 'x'.repeat(13) },
      { account: email, password: 12345678, captchaId: 'x', captcha: '2468' },
    ];
    for (const body of bodies) {
      const res = await call(t.app, 'POST', '/api/login', { body, ip, headers, lang: 'zh-cn' });
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.code).toBe('VALIDATION_FAILED');
      expect(res.body.message).toMatch(new RegExp(`^${text('zh-cn', 'errors.VALIDATION_FAILED', { detail: '' })}`));
    }
    const rows = await logsOf(email);
    expect(rows).toHaveLength(bodies.length);
    for (const r of rows) expect(r).toMatchObject({ result: 'invalid', user_id: user.id, account: email, ip, user_agent: 'InvalidTest/1.0' });
    // Six refused bodies are no failures: the right password still gets in from that IP.
    expect((await login(t.app, email, 'secret123', ip)).body.data.id).toBe(user.id);
  });

  it('logs nothing for a refused body that names no account', async () => {
    const before = await t.db.db.selectFrom('login_logs').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
    for (const body of [{}, { account: '   ', password: 'x' }, { account: 42 }, { password: 'secret123' }]) {
      expect((await call(t.app, 'POST', '/api/login', { body, ip: uniqueIp() })).status).toBe(400);
    }
    const after = await t.db.db.selectFrom('login_logs').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
    expect(Number(after.n)).toBe(Number(before.n));
  });

  it('refuses a disabled user with ACCOUNT_DISABLED and their sessions stop working', async () => {
    const email = uniqueEmail('disabled');
    const user = await createUser(t, { email, password: 'secret123' });
    const { token } = (await login(t.app, email, 'secret123', uniqueIp())).body;
    expect((await call(t.app, 'GET', '/api/user', { token })).status).toBe(200);

    await t.db.db.updateTable('users').set({ status: 'disabled' }).where('id', '=', user.id).execute();
    const me = await call(t.app, 'GET', '/api/user', { token });
    expect(me.status).toBe(401);
    expect(me.body.code).toBe('UNAUTHENTICATED');
    const res = await login(t.app, email, 'secret123', uniqueIp());
    expect(res.status).toBe(403);
    expect(res.body).toEqual({ code: 'ACCOUNT_DISABLED', message: text('en', 'errors.ACCOUNT_DISABLED') });
    // The wrong password still gets LOGIN_FAILED: the disabled state is only told to the owner.
    expect((await login(t.app, email, 'wrong-pass1', uniqueIp())).body).toEqual(failed);
    expect((await logsOf(email)).map((r) => r.result)).toEqual(['success', 'disabled', 'bad-password']);
  });
});

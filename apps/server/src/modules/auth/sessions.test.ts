import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser, uniqueEmail, uniqueIp } from '../../../test/accounts';
import { call, login, sendCode } from '../../../test/auth-flows';
import { text } from '../../../test/i18n';
import { lastCodeFor, startSmtpSink } from '../../../test/smtp-sink';
import { DIALECTS, type TestApp, createTestApp } from '../../../test/test-app';
import { DAY, MINUTE } from '../../lib/clock';

describe.each(DIALECTS)('sessions on %s', (dialect) => {
  let t: TestApp;
  let sink: Awaited<ReturnType<typeof startSmtpSink>>;
  beforeAll(async () => {
    sink = await startSmtpSink();
    t = await createTestApp(dialect, { SMTP_URL: sink.url });
  });
  afterAll(async () => {
    await t.close();
    await sink.close();
  });

  async function signedIn(prefix: string, password = 'secret123') {
    const email = uniqueEmail(prefix);
    const user = await createUser(t, { email, password });
    const res = await login(t.app, email, password, uniqueIp());
    expect(res.status).toBe(200);
    return { email, user, token: res.body.token as string };
  }
  const newSession = async (email: string, password: string) => (await login(t.app, email, password, uniqueIp())).body.token as string;
  const me = (token: string) => call(t.app, 'GET', '/api/user', { token });
  async function mailedCode(email: string, purpose: 'change-pass' | 'reset') {
    expect((await sendCode(t.app, email, purpose, uniqueIp())).status).toBe(200);
    return lastCodeFor(sink.messages, email);
  }
  const unauthenticated = { code: 'UNAUTHENTICATED', message: text('en', 'errors.UNAUTHENTICATED') };

  it('hands out an opaque 43-character token and stores only its SHA-256', async () => {
    const { user, token } = await signedIn('opaque');
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(Buffer.from(token, 'base64url')).toHaveLength(32);
    const rows = await t.db.db.selectFrom('sessions').selectAll().where('user_id', '=', user.id).execute();
    expect(rows).toHaveLength(1);
    expect(rows[0]?.token_hash).toBe(createHash('sha256').update(token).digest('hex'));
    const everything = JSON.stringify(await t.db.db.selectFrom('sessions').selectAll().execute());
    expect(everything).not.toContain(token);
    expect((await me(token)).body.data.id).toBe(user.id);
  });

  it('logout revokes that token only', async () => {
    const { email, token } = await signedIn('logout');
    const other = await newSession(email, 'secret123');
    const out = await call(t.app, 'POST', '/api/logout', { token });
    expect(out.status).toBe(200);
    expect(out.body).toEqual({ data: null, message: text('en', 'messages.loggedOut') });
    const after = await me(token);
    expect(after.status).toBe(401);
    expect(after.body).toEqual(unauthenticated);
    expect((await call(t.app, 'POST', '/api/logout', { token })).status).toBe(401);
    expect((await me(other)).status).toBe(200);
  });

  it('change-pass signs out other sessions, keeps this one and swaps the password', async () => {
    const { email, token } = await signedIn('change');
    const other = await newSession(email, 'secret123');
    const code = await mailedCode(email, 'change-pass');
    const res = await call(t.app, 'POST', '/api/user/change-pass', { token, body: { oldPassword: 'secret123', newPassword: 'newpass456', code } });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ data: null, message: text('en', 'messages.passwordChanged') });
    expect((await me(other)).status).toBe(401);
    expect((await me(token)).status).toBe(200);
    expect((await login(t.app, email, 'secret123', uniqueIp())).body.code).toBe('LOGIN_FAILED');
    expect((await login(t.app, email, 'newpass456', uniqueIp())).status).toBe(200);
  });

  it('change-pass with a wrong old password changes nothing', async () => {
    const { email, token } = await signedIn('wrongold');
    const other = await newSession(email, 'secret123');
    const code = await mailedCode(email, 'change-pass');
    const res = await call(t.app, 'POST', '/api/user/change-pass', { token, body: { oldPassword: 'not-it-1', newPassword: 'newpass456', code } });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ code: 'PASSWORD_WRONG', message: text('en', 'errors.PASSWORD_WRONG') });
    expect((await me(other)).status).toBe(200);
    expect((await login(t.app, email, 'newpass456', uniqueIp())).body.code).toBe('LOGIN_FAILED');
    expect((await login(t.app, email, 'secret123', uniqueIp())).status).toBe(200);
    // The mail code was not spent on the refused request.
    const retry = await call(t.app, 'POST', '/api/user/change-pass', { token, body: { oldPassword: 'secret123', newPassword: 'newpass456', code } });
    expect(retry.status).toBe(200);
  });

  it('change-pass to the same password is refused', async () => {
    const { email, token } = await signedIn('same');
    const code = await mailedCode(email, 'change-pass');
    const res = await call(t.app, 'POST', '/api/user/change-pass', { token, body: { oldPassword: 'secret123', newPassword: 'secret123', code } });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ code: 'PASSWORD_SAME', message: text('en', 'errors.PASSWORD_SAME') });
  });

  it('change-pass needs a change-pass code: a reset code is refused', async () => {
    const { email, token } = await signedIn('wrongpurpose');
    const code = await mailedCode(email, 'reset');
    const res = await call(t.app, 'POST', '/api/user/change-pass', { token, body: { oldPassword: 'secret123', newPassword: 'newpass456', code } });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('MAIL_CODE_INVALID');
    expect((await login(t.app, email, 'secret123', uniqueIp())).status).toBe(200);
  });

  it('change-pass needs a session', async () => {
    const res = await call(t.app, 'POST', '/api/user/change-pass', { body: { oldPassword: 'secret123', newPassword: 'newpass456', code: '123456' } });
    expect(res.status).toBe(401);
  });

  it('expires after 7 idle days; use slides the expiry', async () => {
    const { email, token: used } = await signedIn('idle');
    const idle = await newSession(email, 'secret123');
    t.clock.advance(6 * DAY);
    expect((await me(used)).status).toBe(200);
    t.clock.advance(1 * DAY);
    expect((await me(idle)).status).toBe(401);
    expect((await me(used)).status).toBe(200);
    t.clock.advance(7 * DAY - MINUTE);
    expect((await me(used)).status).toBe(200);
    t.clock.advance(7 * DAY);
    expect((await me(used)).body).toEqual(unauthenticated);
  });

  it('reset-pass with a reset code sets the new password and signs out everywhere', async () => {
    const { email, token } = await signedIn('reset');
    const other = await newSession(email, 'secret123');
    const code = await mailedCode(email, 'reset');
    const res = await call(t.app, 'POST', '/api/reset-pass', { body: { email: email.toUpperCase(), code, newPassword: 'newpass456' } });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ data: null, message: text('en', 'messages.passwordReset') });
    expect((await me(token)).status).toBe(401);
    expect((await me(other)).status).toBe(401);
    expect((await login(t.app, email, 'secret123', uniqueIp())).body.code).toBe('LOGIN_FAILED');
    expect((await login(t.app, email, 'newpass456', uniqueIp())).status).toBe(200);
    // The code is used up.
    const again = await call(t.app, 'POST', '/api/reset-pass', { body: { email, code, newPassword: 'third789x' } });
    expect(again.body.code).toBe('MAIL_CODE_INVALID');
  });

  it('reset-pass with a wrong code changes nothing', async () => {
    const { email, token } = await signedIn('resetwrong');
    const code = await mailedCode(email, 'reset');
    const res = await call(t.app, 'POST', '/api/reset-pass', { body: { email, code: code === '000000' ? '111111' : '000000', newPassword: 'newpass456' } });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('MAIL_CODE_INVALID');
    expect((await me(token)).status).toBe(200);
    expect((await login(t.app, email, 'secret123', uniqueIp())).status).toBe(200);
  });

  it('reset for an unknown email: no code is sent, and reset-pass answers as for a wrong code', async () => {
    const email = uniqueEmail('unknown');
    const send = await sendCode(t.app, email, 'reset', uniqueIp());
    expect(send.status).toBe(200);
    expect(() => lastCodeFor(sink.messages, email)).toThrow(/no code/);
    const reset = await call(t.app, 'POST', '/api/reset-pass', { body: { email, code: '123456', newPassword: 'newpass456' } });
    expect(reset.status).toBe(400);
    expect(reset.body).toEqual({ code: 'MAIL_CODE_INVALID', message: text('en', 'errors.MAIL_CODE_INVALID') });
  });
});

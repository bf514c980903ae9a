import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser, uniqueEmail, uniqueIp } from '../../../test/accounts';
import { call, sendCode } from '../../../test/auth-flows';
import { CATALOGUE_LANGS, text } from '../../../test/i18n';
import { lastCodeFor, startSmtpSink } from '../../../test/smtp-sink';
import { DIALECTS, type TestApp, createTestApp } from '../../../test/test-app';

describe.each(DIALECTS)('register on %s', (dialect) => {
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

  const userRow = (email: string) => t.db.db.selectFrom('users').selectAll().where('email', '=', email).executeTakeFirst();
  /** Mails a register code to a fresh address and returns both. */
  async function freshCode(prefix: string): Promise<{ email: string; code: string }> {
    return freshCodeFor(uniqueEmail(prefix));
  }
  /** Mails a register code to `email` and returns both. */
  async function freshCodeFor(email: string): Promise<{ email: string; code: string }> {
    expect((await sendCode(t.app, email, 'register', uniqueIp())).status).toBe(200);
    return { email, code: lastCodeFor(sink.messages, email) };
  }
  const register = (body: Record<string, unknown>, lang?: string) => call(t.app, 'POST', '/api/register', { body, ip: uniqueIp(), lang });

  it('registers with a mailed code, stores the channel and returns a working token', async () => {
    const { email, code } = await freshCode('alice');
    const res = await register({ email: email.toUpperCase(), password: 'secret123', code, agree: true, channelKey: 'hz', channelValue: 'spring' });
    expect(res.status).toBe(200);
    expect(res.body.token).toMatch(/^[\w-]{43}$/);
    expect(res.body.message).toBe(text('en', 'messages.registered'));
    expect(res.body.data.email).toBe(email);
    const me = await call(t.app, 'GET', '/api/user', { token: res.body.token });
    expect(me.body.data).toMatchObject({ email, role: 'customer', isDistributor: false });
    const row = await userRow(email);
    expect(row).toMatchObject({ channel_key: 'hz', channel_value: 'spring', referrer_id: null });
    expect(row?.password_hash).not.toContain('secret123');
  });

  it('refuses an email that is already registered, as it refuses a wrong code', async () => {
    const { email, code } = await freshCode('twice');
    expect((await register({ email, password: 'secret123', code, agree: true })).status).toBe(200);
    const again = await register({ email, password: 'secret123', code, agree: true });
    expect(again.status).toBe(400);
    expect(again.body).toEqual({ code: 'MAIL_CODE_INVALID', message: text('en', 'errors.MAIL_CODE_INVALID') });
  });

  it('refuses an account name that is taken, whatever its case', async () => {
    const first = await freshCode('acct1');
    const name = `Bobby_${process.pid}`.slice(0, 32);
    const ok = await register({ email: first.email, account: name, password: 'secret123', code: first.code, agree: true });
    expect(ok.status).toBe(200);
    expect(ok.body.data.account).toBe(name.toLowerCase());
    const second = await freshCode('acct2');
    const taken = await register({ email: second.email, account: name.toUpperCase(), password: 'secret123', code: second.code, agree: true });
    expect(taken.status).toBe(409);
    expect(taken.body).toEqual({ code: 'ACCOUNT_TAKEN', message: text('en', 'errors.ACCOUNT_TAKEN') });
    expect(await userRow(second.email)).toBeUndefined();
    // The code was not used up by the refusal.
    const other = await register({ email: second.email, account: `${name.slice(0, 28)}_b`, password: 'secret123', code: second.code, agree: true });
    expect(other.status).toBe(200);
  });

  it('refuses an unknown invite code without using up the mail code', async () => {
    const { email, code } = await freshCode('badinvite');
    const bad = await register({ email, password: 'secret123', code, inviteCode: 'NOSUCH99', agree: true });
    expect(bad.status).toBe(400);
    expect(bad.body).toEqual({ code: 'INVITE_CODE_UNKNOWN', message: text('en', 'errors.INVITE_CODE_UNKNOWN') });
    expect(await userRow(email)).toBeUndefined();
    const retry = await register({ email, password: 'secret123', code, agree: true });
    expect(retry.status).toBe(200);
    expect((await userRow(email))?.referrer_id).toBeNull();
  });

  it('links the new user to the owner of a valid invite code', async () => {
    const referrer = await createUser(t, { email: uniqueEmail('referrer'), password: 'secret123' });
    const { email, code } = await freshCode('invited');
    const res = await register({ email, password: 'secret123', code, inviteCode: referrer.invite_code, agree: true });
    expect(res.status).toBe(200);
    expect((await userRow(email))?.referrer_id).toBe(referrer.id);
  });

  it("refuses the invite code of an account that reads mail at the registering address's mailbox (SELF_REFERRAL)", async () => {
    const base = uniqueEmail('selfref');
    const [local, domain] = base.split('@');
    const owner = await createUser(t, { email: base, password: 'secret123', isDistributor: true });
    // `+tag` sub-addressing reaches the owner's own mailbox.
    const { email, code } = await freshCodeFor(`${local}+second@${domain}`);
    const res = await register({ email, password: 'secret123', code, inviteCode: owner.invite_code, agree: true }, 'zh-cn');
    expect(res).toMatchObject({ status: 400, body: { code: 'SELF_REFERRAL', message: text('zh-cn', 'errors.SELF_REFERRAL') } });
    expect(await userRow(email)).toBeUndefined();
    // Another person's address with the same invite code is fine.
    const other = await freshCode('notself');
    expect((await register({ email: other.email, password: 'secret123', code: other.code, inviteCode: owner.invite_code, agree: true })).status).toBe(200);
  });

  it.each([
    ['missing', {}],
    ['false', { agree: false }],
    ['a string', { agree: 'true' }],
  ])('refuses registration when the agreement is %s, creating no user', async (_label, agreement) => {
    const { email, code } = await freshCode('agree');
    const res = await register({ email, password: 'secret123', code, ...agreement });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('VALIDATION_FAILED');
    expect(res.body.message).toContain(text('en', 'validation.agree'));
    expect(await userRow(email)).toBeUndefined();
    // Validation happens before the code is looked at: it still works with the agreement given.
    expect((await register({ email, password: 'secret123', code, agree: true })).status).toBe(200);
  });

  it('refuses unknown body fields', async () => {
    const { email, code } = await freshCode('extra');
    const res = await register({ email, password: 'secret123', code, agree: true, role: 'admin' });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ code: 'VALIDATION_FAILED', message: text('en', 'errors.VALIDATION_FAILED', { detail: text('en', 'validation.unknownField', { field: 'role' }) }) });
    expect(await userRow(email)).toBeUndefined();
  });

  it.each(CATALOGUE_LANGS)('refuses a weak password with the password rule in %s', async (lang) => {
    for (const password of ['short1', 'onlyletters', '1234567890']) {
      const email = uniqueEmail('weak');
      const res = await register({ email, password, code: '123456', agree: true }, lang);
      expect(res.status).toBe(400);
      expect(res.body).toEqual({
        code: 'VALIDATION_FAILED',
        message: text(lang, 'errors.VALIDATION_FAILED', { detail: text(lang, 'validation.password') }),
      });
      expect(await userRow(email)).toBeUndefined();
    }
  });

  it('does not accept a password-reset code for registration', async () => {
    // A reset code needs an existing account; move that account to another address afterwards so the
    // original address is free to register and only the code's purpose stands in the way.
    const email = uniqueEmail('purpose');
    const user = await createUser(t, { email, password: 'secret123' });
    expect((await sendCode(t.app, email, 'reset', uniqueIp())).status).toBe(200);
    const resetCode = lastCodeFor(sink.messages, email);
    await t.db.db.updateTable('users').set({ email: `moved-${email}` }).where('id', '=', user.id).execute();
    const res = await register({ email, password: 'secret123', code: resetCode, agree: true });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('MAIL_CODE_INVALID');
    expect(await userRow(email)).toBeUndefined();
    // The same address registers with a register code.
    expect((await sendCode(t.app, email, 'register', uniqueIp())).status).toBe(200);
    expect((await register({ email, password: 'secret123', code: lastCodeFor(sink.messages, email), agree: true })).status).toBe(200);
  });
});

import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createUser, uniqueEmail, uniqueIp } from '../../../test/accounts';
import { call, sendCode } from '../../../test/auth-flows';
import { text } from '../../../test/i18n';
import { lastCodeFor, parseMail, startSmtpSink } from '../../../test/smtp-sink';
import { CAPTCHA, DIALECTS, type TestApp, createTestApp } from '../../../test/test-app';
import { MINUTE } from '../../lib/clock';
import type * as Secrets from '../../lib/secrets';

/** Codes a test needs to know in advance; when empty, codes are random as in production. */
const forced = vi.hoisted(() => ({ codes: [] as string[] }));
vi.mock('../../lib/secrets', async (importOriginal) => {
  const actual = await importOriginal<typeof Secrets>();
  return { ...actual, digits: (n: number) => forced.codes.shift() ?? actual.digits(n) };
});

describe.each(DIALECTS)('email codes on %s', (dialect) => {
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

  const mailsTo = (email: string) => sink.messages.filter((m) => m.to.includes(email)).length;
  const register = (email: string, code: string, ip = uniqueIp()) =>
    call(t.app, 'POST', '/api/register', { body: { email, password: 'secret123', code, agree: true }, ip });
  const userCount = async (email: string) =>
    Number((await t.db.db.selectFrom('users').select((eb) => eb.fn.countAll<number>().as('n')).where('email', '=', email).executeTakeFirstOrThrow()).n);
  const otherThan = (code: string) => (code === '000000' ? '111111' : '000000');

  it('mails a 6-digit code and stores only its keyed hash', async () => {
    const email = uniqueEmail('six');
    const res = await sendCode(t.app, email, 'register', uniqueIp());
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ data: { resendAfter: 60 }, message: text('en', 'messages.mailCodeSent', { email }) });
    expect(mailsTo(email)).toBe(1);
    const code = lastCodeFor(sink.messages, email);
    expect(code).toMatch(/^\d{6}$/);
    const rows = await t.db.db.selectFrom('mail_codes').selectAll().where('email', '=', email).execute();
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ purpose: 'register', tries: 0, consumed_at: null });
    expect(JSON.stringify(rows)).not.toContain(code);
  });

  it('accepts a code until 10 minutes have passed and refuses it after', async () => {
    const early = uniqueEmail('early');
    const late = uniqueEmail('late');
    const ip = uniqueIp();
    await sendCode(t.app, early, 'register', ip);
    await sendCode(t.app, late, 'register', ip);
    t.clock.advance(10 * MINUTE - 2_000);
    expect((await register(early, lastCodeFor(sink.messages, early))).status).toBe(200);
    t.clock.advance(2_000);
    const res = await register(late, lastCodeFor(sink.messages, late));
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('MAIL_CODE_INVALID');
    expect(await userCount(late)).toBe(0);
  });

  it('after 5 wrong tries the code is dead, even for the right code', async () => {
    const email = uniqueEmail('tries');
    await sendCode(t.app, email, 'register', uniqueIp());
    const code = lastCodeFor(sink.messages, email);
    for (let i = 0; i < 5; i++) {
      const wrong = await register(email, otherThan(code));
      expect(wrong.status).toBe(400);
      expect(wrong.body.code).toBe('MAIL_CODE_INVALID');
    }
    const right = await register(email, code);
    expect(right.status).toBe(400);
    expect(right.body.code).toBe('MAIL_CODE_INVALID');
    expect(await userCount(email)).toBe(0);
  });

  it('four wrong tries still leave the right code usable', async () => {
    const email = uniqueEmail('four');
    await sendCode(t.app, email, 'register', uniqueIp());
    const code = lastCodeFor(sink.messages, email);
    for (let i = 0; i < 4; i++) expect((await register(email, otherThan(code))).body.code).toBe('MAIL_CODE_INVALID');
    expect((await register(email, code)).status).toBe(200);
  });

  it('keeps one live code per email and purpose: a resend retires the older code', async () => {
    const email = uniqueEmail('resend');
    const ip = uniqueIp();
    // Two different codes for certain: random ones are equal one time in a million.
    forced.codes.push('135790', '246801');
    await sendCode(t.app, email, 'register', ip);
    const first = lastCodeFor(sink.messages, email);
    t.clock.advance(61_000);
    expect((await sendCode(t.app, email, 'register', ip)).status).toBe(200);
    const second = lastCodeFor(sink.messages, email);
    expect([first, second]).toEqual(['135790', '246801']);
    expect(mailsTo(email)).toBe(2);
    const old = await register(email, first);
    expect(old.status).toBe(400);
    expect(old.body.code).toBe('MAIL_CODE_INVALID');
    const live = await t.db.db.selectFrom('mail_codes').select('id').where('email', '=', email).where('consumed_at', 'is', null).execute();
    expect(live).toHaveLength(1);
    expect((await register(email, second)).status).toBe(200);
  });

  it('keeps one live code and sends one mail when sends for one email race', async () => {
    const email = uniqueEmail('race');
    const liveRows = async () =>
      (await t.db.db.selectFrom('mail_codes').select('id').where('email', '=', email).where('consumed_at', 'is', null).execute()).length;
    for (let round = 0; round < 2; round++) {
      const results = await Promise.all(Array.from({ length: 4 }, () => sendCode(t.app, email, 'register', uniqueIp())));
      expect(results.map((r) => r.status).sort(), `round ${round}`).toEqual([200, 429, 429, 429]);
      for (const r of results.filter((x) => x.status === 429)) expect(r.body.code).toBe('MAIL_CODE_TOO_SOON');
      expect(mailsTo(email)).toBe(round + 1);
      expect(await liveRows()).toBe(1);
      t.clock.advance(61_000);
    }
    expect((await register(email, lastCodeFor(sink.messages, email))).status).toBe(200);
  });

  it('the store itself refuses a second live code for one email and purpose', async () => {
    const row = (email: string, purpose: string) => ({
      email,
      purpose,
      code_hash: 'x'.repeat(64),
      tries: 0,
      ip: null,
      created_at: new Date().toISOString(),
      expires_at: new Date().toISOString(),
      consumed_at: null,
    });
    const email = uniqueEmail('index');
    await t.db.db.insertInto('mail_codes').values(row(email, 'register')).execute();
    await expect(t.db.db.insertInto('mail_codes').values(row(email, 'register')).execute()).rejects.toThrow();
    // Other purposes and retired codes are not affected.
    await t.db.db.insertInto('mail_codes').values(row(email, 'reset')).execute();
    await t.db.db.insertInto('mail_codes').values({ ...row(email, 'register'), consumed_at: new Date().toISOString() }).execute();
  });

  it('refuses a resend within 60 seconds and allows it after', async () => {
    const email = uniqueEmail('soon');
    const ip = uniqueIp();
    expect((await sendCode(t.app, email, 'register', ip)).status).toBe(200);
    t.clock.advance(45_000);
    const soon = await sendCode(t.app, email, 'register', ip);
    expect(soon.status).toBe(429);
    expect(soon.body).toEqual({ code: 'MAIL_CODE_TOO_SOON', message: text('en', 'errors.MAIL_CODE_TOO_SOON', { seconds: 15 }) });
    // The wait in Retry-After too: the console's send button counts it down.
    expect(soon.headers['retry-after']).toBe('15');
    expect(mailsTo(email)).toBe(1);
    t.clock.advance(15_000);
    expect((await sendCode(t.app, email, 'register', ip)).status).toBe(200);
    expect(mailsTo(email)).toBe(2);
  });

  it('sends at most 5 codes per email per hour', async () => {
    const email = uniqueEmail('hourly');
    for (let i = 0; i < 5; i++) {
      expect((await sendCode(t.app, email, 'register', uniqueIp())).status).toBe(200);
      t.clock.advance(61_000);
    }
    const sixth = await sendCode(t.app, email, 'register', uniqueIp());
    expect(sixth.status).toBe(429);
    expect(sixth.body).toEqual({ code: 'MAIL_CODE_TOO_MANY', message: text('en', 'errors.MAIL_CODE_TOO_MANY') });
    expect(mailsTo(email)).toBe(5);
    t.clock.advance(60 * MINUTE);
    expect((await sendCode(t.app, email, 'register', uniqueIp())).status).toBe(200);
  });

  it('sends at most 20 codes per IP per hour; another IP is not affected', async () => {
    const ip = uniqueIp();
    for (let i = 0; i < 20; i++) expect((await sendCode(t.app, uniqueEmail('ip'), 'register', ip)).status).toBe(200);
    const email = uniqueEmail('ip-over');
    const over = await sendCode(t.app, email, 'register', ip);
    expect(over.status).toBe(429);
    expect(over.body.code).toBe('MAIL_CODE_TOO_MANY');
    expect(mailsTo(email)).toBe(0);
    expect((await sendCode(t.app, email, 'register', uniqueIp())).status).toBe(200);
  });

  it('answers a register request for a registered email like any other, and mails a notice instead of a code', async () => {
    const email = uniqueEmail('taken');
    await createUser(t, { email, password: 'secret123' });
    const res = await sendCode(t.app, email, 'register', uniqueIp());
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ data: { resendAfter: 60 }, message: text('en', 'messages.mailCodeSent', { email }) });
    expect(mailsTo(email)).toBe(1);
    const mail = parseMail(sink.messages.find((m) => m.to.includes(email))!.raw);
    expect(mail.text.trim()).toBe(text('en', 'mail.notice.register', { app: t.config.APP_NAME }));
    expect(() => lastCodeFor(sink.messages, email)).toThrow(/no code/);
  });

  it('answers a reset request for an unknown email like any other, and mails a notice instead of a code', async () => {
    const email = uniqueEmail('nobody');
    const res = await sendCode(t.app, email, 'reset', uniqueIp());
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ data: { resendAfter: 60 }, message: text('en', 'messages.mailCodeSent', { email }) });
    expect(mailsTo(email)).toBe(1);
    const mail = parseMail(sink.messages.find((m) => m.to.includes(email))!.raw);
    expect(mail.text.trim()).toBe(text('en', 'mail.notice.reset', { app: t.config.APP_NAME }));
  });

  it('writes the mail in the requested language', async () => {
    const email = uniqueEmail('lang');
    const res = await call(t.app, 'POST', '/api/send-mail-code', {
      body: { email, purpose: 'register', captchaId: (await call(t.app, 'GET', '/api/captcha')).body.data.id, captcha: CAPTCHA },
      ip: uniqueIp(),
      lang: 'zh-cn',
    });
    expect(res.body.message).toBe(text('zh-cn', 'messages.mailCodeSent', { email }));
    const code = lastCodeFor(sink.messages, email);
    const mail = parseMail(sink.messages.find((m) => m.to.includes(email))!.raw);
    const app = t.config.APP_NAME;
    expect(mail.subject).toBe(text('zh-cn', 'mail.codeSubject', { app, code }));
    expect(mail.text.trim()).toBe(text('zh-cn', 'mail.codeBody', { app, code, purpose: text('zh-cn', 'mail.purpose.register') }));
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser, uniqueEmail, uniqueIp } from '../../../test/accounts';
import { newCaptcha } from '../../../test/auth-flows';
import { lastCodeFor, startSmtpSink } from '../../../test/smtp-sink';
import { CAPTCHA, DIALECTS, type TestApp, createTestApp } from '../../../test/test-app';

const LANGS = ['en', 'zh-cn', 'zh'] as const;

/**
 * None of the public mail-code forms may tell whether an address has an account: the answer for an
 * address with an account and for one without is the same status and the same bytes.
 */
describe.each(DIALECTS)('no account enumeration on %s', (dialect) => {
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

  /** The raw answer, as a client sees it. */
  const post = async (url: string, body: Record<string, unknown>, lang: string) => {
    const res = await t.app.inject({ method: 'POST', url, payload: body, remoteAddress: uniqueIp(), headers: { 'api-lang': lang } });
    return { status: res.statusCode, body: res.body };
  };
  const sendCode = async (email: string, purpose: string, lang: string) => {
    const res = await post('/api/send-mail-code', { email, purpose, captchaId: await newCaptcha(t.app), captcha: CAPTCHA }, lang);
    // The message names the address it was given, whichever it is; everything else must be equal.
    return { status: res.status, body: res.body.replace(email, '<email>') };
  };
  const registered = async (prefix: string) => {
    const email = uniqueEmail(prefix);
    await createUser(t, { email, password: 'secret123' });
    return email;
  };
  const wrong = (code: string) => (code === '000000' ? '111111' : '000000');

  it.each(LANGS)('reset-pass: an unknown email answers exactly as a wrong code (%s)', async (lang) => {
    const known = await registered('reset-known');
    expect((await sendCode(known, 'reset', lang)).status).toBe(200);
    const code = lastCodeFor(sink.messages, known);
    const wrongCode = await post('/api/reset-pass', { email: known, code: wrong(code), newPassword: 'newpass456' }, lang);
    const unknown = await post('/api/reset-pass', { email: uniqueEmail('reset-unknown'), code, newPassword: 'newpass456' }, lang);
    expect(wrongCode.status).toBe(400);
    expect(JSON.parse(wrongCode.body).code).toBe('MAIL_CODE_INVALID');
    expect(unknown).toEqual(wrongCode);
  });

  it.each(LANGS)('register: a registered email answers exactly as a wrong code (%s)', async (lang) => {
    const fresh = uniqueEmail('reg-new');
    expect((await sendCode(fresh, 'register', lang)).status).toBe(200);
    const code = lastCodeFor(sink.messages, fresh);
    const wrongCode = await post('/api/register', { email: fresh, password: 'secret123', code: wrong(code), agree: true }, lang);
    const taken = await post('/api/register', { email: await registered('reg-taken'), password: 'secret123', code, agree: true }, lang);
    expect(wrongCode.status).toBe(400);
    expect(JSON.parse(wrongCode.body).code).toBe('MAIL_CODE_INVALID');
    expect(taken).toEqual(wrongCode);
  });

  it.each(LANGS)('send-mail-code answers alike with and without an account, also when asked again too soon (%s)', async (lang) => {
    const pairs = [
      ['register', uniqueEmail('send-new'), await registered('send-taken')],
      ['reset', await registered('send-known'), uniqueEmail('send-unknown')],
      ['change-pass', await registered('send-known'), uniqueEmail('send-unknown')],
    ] as const;
    for (const [purpose, usable, other] of pairs) {
      const first = await sendCode(usable, purpose, lang);
      expect(first.status, purpose).toBe(200);
      expect(await sendCode(other, purpose, lang), purpose).toEqual(first);
      const again = await sendCode(usable, purpose, lang);
      expect(again.status, purpose).toBe(429);
      expect(await sendCode(other, purpose, lang), purpose).toEqual(again);
    }
  });
});

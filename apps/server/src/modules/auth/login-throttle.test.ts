import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser, uniqueEmail, uniqueIp } from '../../../test/accounts';
import { call, login, newCaptcha, sendCode } from '../../../test/auth-flows';
import { text } from '../../../test/i18n';
import { recordFigure } from '../../../test/security-figures';
import { lastCodeFor, startSmtpSink } from '../../../test/smtp-sink';
import { CAPTCHA, DIALECTS, type TestApp, createTestApp } from '../../../test/test-app';
import * as loginThrottleMigration from '../../db/migrations/2026-12-12-login-throttle';
import { DAY, MINUTE, addMs, iso } from '../../lib/clock';

/** What each store measured in the 600-guess run, recorded together once both have run. */
const measured: string[] = [];
afterAll(() => {
  if (measured.length < DIALECTS.length) return;
  recordFigure({
    id: 'login-many-addresses',
    threat: "Guessing one account's password from many addresses (600 wrong passwords from 60 addresses were all checked)",
    test: 'apps/server/src/modules/auth/login-throttle.test.ts › 600 guesses from 60 addresses…',
    figure: measured.join('; '),
  });
});

describe.each(DIALECTS)('login throttle per account on %s', (dialect) => {
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

  const failed = { code: 'LOGIN_FAILED', message: text('en', 'errors.LOGIN_FAILED') };
  const closed = (minutes: number) => ({ code: 'LOGIN_GUARDED', message: text('en', 'errors.LOGIN_GUARDED', { minutes }) });
  const resultsOf = async (userId: number, ip: string) =>
    (await t.db.db.selectFrom('login_logs').select('result').where('user_id', '=', userId).where('ip', '=', ip).orderBy('id').execute()).map((r) => r.result);

  // A budget for 600 requests on a loaded 2-core machine (and for the 600 password checks they cost without the throttle).
  it('600 guesses from 60 addresses, 60 at a time: 10 passwords checked, the rest refused; the owner signs in from home', { timeout: 180_000 }, async () => {
    const email = uniqueEmail('guessed');
    const user = await createUser(t, { email, password: 'secret123' });
    const home = uniqueIp();
    expect((await login(t.app, email, 'secret123', home)).status).toBe(200);

    const attackers = Array.from({ length: 60 }, () => uniqueIp());
    const answers: Array<{ status: number; code?: string }> = [];
    for (let round = 0; round < 10; round++) {
      // Captchas first, so the 60 guesses of a round reach the password check together.
      const captchas = await Promise.all(attackers.map(() => newCaptcha(t.app)));
      const round_ = await Promise.all(
        attackers.map((ip, i) => call(t.app, 'POST', '/api/login', { body: { account: email, password: `guess-${round}-${i}`, captchaId: captchas[i]!, captcha: CAPTCHA }, ip })),
      );
      answers.push(...round_.map((r) => ({ status: r.status, code: r.body.code })));
    }
    const checked = answers.filter((a) => a.code === 'LOGIN_FAILED').length;
    const refused = answers.filter((a) => a.code === 'LOGIN_GUARDED').length;
    expect(checked).toBe(10);
    expect(refused).toBe(590);
    expect(answers.filter((a) => a.status !== 400 && a.status !== 429)).toEqual([]);

    // The right password from an address that guessed: refused like a wrong one, so the guess tells nothing.
    const fromAttacker = await login(t.app, email, 'secret123', attackers[0]);
    expect(fromAttacker.status).toBe(429);
    expect(fromAttacker.body).toEqual(closed(15));
    expect(Number(fromAttacker.headers['retry-after'])).toBeGreaterThan(14 * 60);
    // The owner at a new address (a hotel, a phone) is closed out too, and told how to get in.
    const newPlace = uniqueIp();
    expect((await login(t.app, email, 'secret123', newPlace)).body).toEqual(closed(15));
    expect(await resultsOf(user.id, newPlace)).toEqual(['locked']);
    // From the address they signed in from before, the owner gets in during the attack.
    const owner = await login(t.app, email, 'secret123', home);
    expect(owner.status).toBe(200);
    expect(owner.body.token).toEqual(expect.any(String));

    measured.push(
      `${dialect}: 600 wrong passwords for one account from 60 addresses (60 at a time): before, 300 checked (5 per address until its pair lock); after, ${checked} checked, ${refused} refused 429 LOGIN_GUARDED without a password check; ` +
        `the right password from a new address refused alike, from an address it had signed in from before answered 200`,
    );

    // 15 minutes after the failures the account is open to every address again.
    t.clock.advance(15 * MINUTE);
    expect((await login(t.app, email, 'secret123', newPlace)).status).toBe(200);
  });

  it('nine failures from nine addresses leave the account open to a new address', async () => {
    const email = uniqueEmail('nine');
    await createUser(t, { email, password: 'secret123' });
    for (let i = 0; i < 9; i++) expect((await login(t.app, email, 'wrong-pass1', uniqueIp())).body).toEqual(failed);
    expect((await login(t.app, email, 'secret123', uniqueIp())).status).toBe(200);
  });

  it('counts guesses by email and by account name together, and closes an unknown name alike', async () => {
    const email = uniqueEmail('twonames');
    const account = `twonames${process.pid}`.slice(0, 32);
    await createUser(t, { email, password: 'secret123', account });
    for (let i = 0; i < 5; i++) await login(t.app, email, 'wrong-pass1', uniqueIp());
    for (let i = 0; i < 5; i++) await login(t.app, account, 'wrong-pass1', uniqueIp());
    expect((await login(t.app, account, 'secret123', uniqueIp())).body).toEqual(closed(15));
    expect((await login(t.app, email, 'secret123', uniqueIp())).body).toEqual(closed(15));

    // No account by that name: the same answer after the same number of failures.
    const ghost = uniqueEmail('ghost');
    for (let i = 0; i < 10; i++) expect((await login(t.app, ghost, 'wrong-pass1', uniqueIp())).body).toEqual(failed);
    expect((await login(t.app, ghost, 'secret123', uniqueIp())).body).toEqual(closed(15));
  });

  it('a password reset with the mailed code opens the address it was made from, and only that one', async () => {
    const email = uniqueEmail('reset');
    await createUser(t, { email, password: 'secret123' });
    for (let i = 0; i < 10; i++) await login(t.app, email, 'wrong-pass1', uniqueIp());
    const here = uniqueIp();
    expect((await login(t.app, email, 'secret123', here)).body).toEqual(closed(15));

    expect((await sendCode(t.app, email, 'reset', here)).status).toBe(200);
    const reset = await call(t.app, 'POST', '/api/reset-pass', { body: { email, code: lastCodeFor(sink.messages, email), newPassword: 'newpass456' }, ip: here });
    expect(reset.status).toBe(200);
    expect((await login(t.app, email, 'newpass456', here)).status).toBe(200);
    expect((await login(t.app, email, 'newpass456', uniqueIp())).body).toEqual(closed(15));
  });

  it('the upgrade counts the sign-ins logged before it as known addresses', async () => {
    const email = uniqueEmail('upgrade');
    const user = await createUser(t, { email, password: 'secret123' });
    const [home, once] = [uniqueIp(), uniqueIp()];
    const at = (days: number) => iso(addMs(t.clock.now(), -days * DAY));
    await t.db.db
      .insertInto('login_logs')
      .values([
        { user_id: user.id, account: email, ip: home, user_agent: null, result: 'success', created_at: at(30) },
        { user_id: user.id, account: email, ip: once, user_agent: null, result: 'bad-password', created_at: at(20) },
      ])
      .execute();
    await loginThrottleMigration.down(t.db.db);
    await loginThrottleMigration.up(t.db.db);

    for (let i = 0; i < 10; i++) await login(t.app, email, 'wrong-pass1', uniqueIp());
    expect((await login(t.app, email, 'secret123', once)).body).toEqual(closed(15));
    expect((await login(t.app, email, 'secret123', home)).status).toBe(200);
  });

  it('answers in the caller\'s language', async () => {
    const email = uniqueEmail('lang');
    await createUser(t, { email, password: 'secret123' });
    for (let i = 0; i < 10; i++) await login(t.app, email, 'wrong-pass1', uniqueIp());
    t.clock.advance(5 * MINUTE);
    const res = await call(t.app, 'POST', '/api/login', { body: { account: email, password: 'secret123', captchaId: await newCaptcha(t.app), captcha: CAPTCHA }, ip: uniqueIp(), lang: 'zh' });
    expect(res.body).toEqual({ code: 'LOGIN_GUARDED', message: text('zh', 'errors.LOGIN_GUARDED', { minutes: 10 }) });
  });
});

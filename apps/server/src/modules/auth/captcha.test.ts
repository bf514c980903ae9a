import svgCaptcha from 'svg-captcha';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { uniqueEmail, uniqueIp } from '../../../test/accounts';
import { call, newCaptcha } from '../../../test/auth-flows';
import { text } from '../../../test/i18n';
import { CAPTCHA, DIALECTS, type TestApp, createTestApp } from '../../../test/test-app';
import { MINUTE } from '../../lib/clock';

describe.each(DIALECTS)('captcha on %s', (dialect) => {
  let t: TestApp;
  /** The same server without the test-only answer, as in production. */
  let prod: TestApp;
  beforeAll(async () => {
    [t, prod] = await Promise.all([createTestApp(dialect), createTestApp(dialect, { CAPTCHA_TEST_ANSWER: '' })]);
  });
  afterAll(async () => {
    await Promise.all([t.close(), prod.close()]);
  });
  afterEach(() => {
    vi.restoreAllMocks();
  });

  /** A login attempt for an unknown user: LOGIN_FAILED means the captcha passed, CAPTCHA_INVALID that it did not. */
  const attempt = (app: TestApp, captchaId: string, captcha: string) =>
    call(app.app, 'POST', '/api/login', { body: { account: uniqueEmail('cap'), password: 'whatever1', captchaId, captcha }, ip: uniqueIp() });
  const invalid = { code: 'CAPTCHA_INVALID', message: text('en', 'errors.CAPTCHA_INVALID') };

  it('serves an SVG picture with an id, never cached', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/captcha' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    const { data } = res.json();
    expect(Object.keys(data).sort()).toEqual(['id', 'svg']);
    expect(data.id).toEqual(expect.any(String));
    expect(data.svg).toMatch(/^<svg[\s>]/);
    const again = (await t.app.inject({ method: 'GET', url: '/api/captcha' })).json().data;
    expect(again.id).not.toBe(data.id);
  });

  it('is good for one attempt only, even with the test answer', async () => {
    const id = await newCaptcha(t.app);
    expect((await attempt(t, id, CAPTCHA)).body.code).toBe('LOGIN_FAILED');
    const reuse = await attempt(t, id, CAPTCHA);
    expect(reuse.status).toBe(400);
    expect(reuse.body).toEqual(invalid);
  });

  it('expires after 5 minutes', async () => {
    const late = await newCaptcha(t.app);
    const inTime = await newCaptcha(t.app);
    t.clock.advance(5 * MINUTE - 1_000);
    expect((await attempt(t, inTime, CAPTCHA)).body.code).toBe('LOGIN_FAILED');
    t.clock.advance(1_000);
    const res = await attempt(t, late, CAPTCHA);
    expect(res.status).toBe(400);
    expect(res.body).toEqual(invalid);
  });

  it('a wrong answer is refused and uses the captcha up', async () => {
    const id = await newCaptcha(t.app);
    const wrong = await attempt(t, id, 'zzzz');
    expect(wrong.status).toBe(400);
    expect(wrong.body).toEqual(invalid);
    expect((await attempt(t, id, CAPTCHA)).body).toEqual(invalid);
  });

  it('an unknown id is refused', async () => {
    expect((await attempt(t, 'no-such-captcha', CAPTCHA)).body).toEqual(invalid);
  });

  it('without CAPTCHA_TEST_ANSWER only the real answer (any case) passes', async () => {
    const create = vi.spyOn(svgCaptcha, 'create');
    const idA = await newCaptcha(prod.app);
    const answerA = create.mock.results[0]?.value.text as string;
    expect(answerA).toMatch(/^\w{4}$/);
    const refused = await attempt(prod, idA, CAPTCHA === answerA ? 'zzzz' : CAPTCHA);
    expect(refused.body).toEqual(invalid);

    const idB = await newCaptcha(prod.app);
    const answerB = create.mock.results[1]?.value.text as string;
    const passed = await attempt(prod, idB, ` ${answerB.toUpperCase()} `);
    expect(passed.body.code).toBe('LOGIN_FAILED');
  });

  it('send-mail-code checks the captcha too', async () => {
    const res = await call(t.app, 'POST', '/api/send-mail-code', {
      body: { email: uniqueEmail('capmail'), purpose: 'register', captchaId: await newCaptcha(t.app), captcha: 'zzzz' },
      ip: uniqueIp(),
    });
    expect(res.status).toBe(400);
    expect(res.body).toEqual(invalid);
  });
});

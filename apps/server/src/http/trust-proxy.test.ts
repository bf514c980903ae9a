import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser, uniqueEmail } from '../../test/accounts';
import { login } from '../../test/auth-flows';
import { CAPTCHA, DIALECTS, type TestApp, createTestApp } from '../../test/test-app';

const PROXY = '10.9.8.7';
const OUTSIDER = '203.0.113.7';
const FORGED = '198.51.100.9';

/** The client IP the app settled on, seen through a test-only route. */
const echoIp = (app: TestApp['app']) => {
  app.get('/api/test-only/ip', { config: { access: 'public' } }, async (request) => ({ data: request.ip }));
};

describe.each(DIALECTS)('X-Forwarded-For on %s', (dialect) => {
  const apps: Record<'off' | 'hops' | 'list', TestApp | undefined> = { off: undefined, hops: undefined, list: undefined };
  beforeAll(async () => {
    apps.off = await createTestApp(dialect, {}, { beforeReady: echoIp });
    apps.hops = await createTestApp(dialect, { TRUST_PROXY: '1' }, { beforeReady: echoIp });
    apps.list = await createTestApp(dialect, { TRUST_PROXY: '10.0.0.0/8, 127.0.0.1' }, { beforeReady: echoIp });
  });
  afterAll(async () => {
    for (const t of Object.values(apps)) await t?.close();
  });

  const ipSeen = async (t: TestApp, remoteAddress: string, forwarded: string) =>
    (await t.app.inject({ method: 'GET', url: '/api/test-only/ip', remoteAddress, headers: { 'x-forwarded-for': forwarded } })).json().data;

  it('ignores the header by default', async () => {
    expect(await ipSeen(apps.off!, OUTSIDER, FORGED)).toBe(OUTSIDER);
  });

  it('believes one hop when TRUST_PROXY is a hop count', async () => {
    expect(await ipSeen(apps.hops!, PROXY, `${FORGED}, 192.0.2.1`)).toBe('192.0.2.1');
  });

  it('believes only the listed proxies when TRUST_PROXY lists them', async () => {
    expect(await ipSeen(apps.list!, PROXY, FORGED)).toBe(FORGED);
    expect(await ipSeen(apps.list!, '127.0.0.1', FORGED)).toBe(FORGED);
    expect(await ipSeen(apps.list!, OUTSIDER, FORGED)).toBe(OUTSIDER);
  });

  const attempt = (t: TestApp, account: string, password: string, remoteAddress: string, forwarded: string) =>
    t.app.inject({
      method: 'POST',
      url: '/api/login',
      remoteAddress,
      headers: { 'x-forwarded-for': forwarded },
      payload: { account, password, captchaId: 'none', captcha: CAPTCHA },
    });
  const loggedIps = async (t: TestApp, account: string) =>
    (await t.db.db.selectFrom('login_logs').select('ip').where('account', '=', account).orderBy('id').execute()).map((r) => r.ip);

  it('a forged header neither names the login-log IP nor escapes the lockout by default', async () => {
    const t = apps.off!;
    const email = uniqueEmail('forged');
    await createUser(t, { email, password: 'secret123' });
    const captcha = async () => (await t.app.inject({ method: 'GET', url: '/api/captcha' })).json().data.id as string;
    for (let i = 0; i < 5; i++) {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/login',
        remoteAddress: OUTSIDER,
        headers: { 'x-forwarded-for': `198.51.100.${i + 1}` },
        payload: { account: email, password: 'wrong-pass1', captchaId: await captcha(), captcha: CAPTCHA },
      });
      expect(res.json().code).toBe('LOGIN_FAILED');
    }
    const locked = await t.app.inject({
      method: 'POST',
      url: '/api/login',
      remoteAddress: OUTSIDER,
      headers: { 'x-forwarded-for': '198.51.100.200' },
      payload: { account: email, password: 'secret123', captchaId: await captcha(), captcha: CAPTCHA },
    });
    expect(locked.json().code).toBe('LOGIN_LOCKED');
    expect(new Set(await loggedIps(t, email))).toEqual(new Set([OUTSIDER]));
  });

  it('the login log records the forwarded client IP behind a trusted proxy', async () => {
    const t = apps.list!;
    const email = uniqueEmail('proxied');
    await createUser(t, { email, password: 'secret123' });
    // The captcha is checked first; its refusal is still a login-log row with the client's IP.
    expect((await attempt(t, email, 'secret123', PROXY, FORGED)).json().code).toBe('CAPTCHA_INVALID');
    expect((await login(t.app, email, 'secret123', PROXY)).status).toBe(200);
    expect(await loggedIps(t, email)).toEqual([FORGED, PROXY]);
  });
});

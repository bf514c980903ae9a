import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { uniqueIp } from '../../test/accounts';
import { call } from '../../test/auth-flows';
import { seedCatalogue, signedIn } from '../../test/commerce';
import { type CatalogueLang, text } from '../../test/i18n';
import { recordFigure } from '../../test/security-figures';
import { DIALECTS, type TestApp, createTestApp } from '../../test/test-app';
import { RATE_LIMITS, type RateLimitName } from './rate-limits';

const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
const LANGS: CatalogueLang[] = ['en', 'zh-cn', 'zh'];
/** What the tests below measured, for the security figure the Redis test writes last. */
const measuredPerIp: string[] = [];
let buyMeasured = '';

/** One request of each limited route; bodies need not be valid: the limit counts before validation. */
// `extract`'s limit per key is the extraction tests' (modules/extraction); buying and replays count signed-in callers (below).
const REQUESTS: Record<Exclude<RateLimitName, 'buy' | 'extract' | 'webhook-replay'>, { method: 'GET' | 'POST'; url: string; body?: Record<string, unknown> }> = {
  captcha: { method: 'GET', url: '/api/captcha' },
  'mail-code': { method: 'POST', url: '/api/send-mail-code', body: {} },
  register: { method: 'POST', url: '/api/register', body: {} },
  login: { method: 'POST', url: '/api/login', body: {} },
  'reset-pass': { method: 'POST', url: '/api/reset-pass', body: {} },
  'channel-visit': { method: 'POST', url: '/api/channel/visit', body: {} },
};

/** Sends requests from `ip` until one is refused; answers how many passed and the refusal. */
async function untilRefused(app: FastifyInstance | FastifyInstance[], name: keyof typeof REQUESTS, ip: string, lang: string, headers: Record<string, string> = {}) {
  const apps = Array.isArray(app) ? app : [app];
  const req = REQUESTS[name];
  for (let passed = 0; passed < 1000; passed++) {
    const res = await apps[passed % apps.length]!.inject({ method: req.method, url: req.url, payload: req.body, remoteAddress: ip, headers: { 'api-lang': lang, ...headers } });
    if (res.statusCode === 429) return { passed, res };
  }
  throw new Error(`${name}: never refused`);
}

function expectRefusal(res: Awaited<ReturnType<typeof untilRefused>>['res'], lang: CatalogueLang, windowS: number) {
  const retryAfter = Number(res.headers['retry-after']);
  expect(retryAfter).toBeGreaterThanOrEqual(1);
  expect(retryAfter).toBeLessThanOrEqual(windowS);
  expect(res.json()).toEqual({ code: 'RATE_LIMITED', message: text(lang, 'errors.RATE_LIMITED', { seconds: retryAfter }) });
}

describe.each(DIALECTS)('request limits (real defaults) on %s', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(dialect, {}, { rateLimits: RATE_LIMITS });
    await seedCatalogue(t);
  });
  afterAll(() => t.close());

  it('captcha, mail codes, register, login, reset-pass and channel visits: per IP, a localized 429 with Retry-After', async () => {
    const measured: string[] = [];
    for (const [n, name] of (Object.keys(REQUESTS) as (keyof typeof REQUESTS)[]).entries()) {
      const lang = LANGS[n % LANGS.length]!;
      const ip = uniqueIp();
      const { passed, res } = await untilRefused(t.app, name, ip, lang);
      expect(passed, name).toBe(RATE_LIMITS[name].perIp.max);
      expectRefusal(res, lang, RATE_LIMITS[name].perIp.windowMs / 1000);
      // Another address is counted apart.
      const req = REQUESTS[name];
      expect((await t.app.inject({ method: req.method, url: req.url, payload: req.body, remoteAddress: uniqueIp() })).statusCode, name).not.toBe(429);
      measured.push(`${name} ${passed}`);
    }
    if (dialect === 'sqlite') measuredPerIp.push(...measured);
  });

  it('a client cannot pick its IP with X-Forwarded-For when TRUST_PROXY is unset', async () => {
    const ip = uniqueIp();
    const spoofed = { 'x-forwarded-for': `203.0.113.${Math.floor(Math.random() * 250)}` };
    const { passed } = await untilRefused(t.app, 'login', ip, 'en', spoofed);
    expect(passed).toBe(RATE_LIMITS.login.perIp.max);
  });

  it('webhook replays: per user from any number of IPs, nothing sent past the limit', async () => {
    const { token } = await signedIn(t);
    const replay = (ip: string) => call(t.app, 'POST', '/api/user/webhooks/1/deliveries/1/replay', { token, ip, body: {}, lang: 'en' });
    for (let i = 0; i < RATE_LIMITS['webhook-replay'].perUser!.max; i++) expect((await replay(uniqueIp())).status).toBe(404);
    const refused = await replay(uniqueIp());
    expect([refused.status, refused.body.code]).toEqual([429, 'RATE_LIMITED']);
  });

  it('buying: per user from any number of IPs, and per IP for any number of users', async () => {
    const buyer = await signedIn(t);
    const buy = (token: string, ip: string) => call(t.app, 'POST', '/api/buy/dynamic', { token, ip, body: { goodsId: 999, payMethod: 'sandbox' }, lang: 'zh' });
    for (let i = 0; i < RATE_LIMITS.buy.perUser!.max; i++) expect((await buy(buyer.token, uniqueIp())).body.code).toBe('GOODS_UNKNOWN');
    const refused = await buy(buyer.token, uniqueIp());
    expect(refused.status).toBe(429);
    expect(refused.body.code).toBe('RATE_LIMITED');
    expect(refused.body.message).toMatch(/請求過於頻繁/);

    const ip = uniqueIp();
    const users = await Promise.all(Array.from({ length: 3 }, () => signedIn(t)));
    for (let i = 0; i < RATE_LIMITS.buy.perIp.max; i++) expect((await buy(users[i % 3]!.token, ip)).status).toBe(404);
    expect((await buy(users[0]!.token, ip)).status).toBe(429);
    // Nothing was created by any of them.
    const orders = await t.db.db.selectFrom('orders').select('id').where('user_id', 'in', [buyer.user.id, ...users.map((u) => u.user.id)]).execute();
    expect(orders).toEqual([]);
    buyMeasured = `${RATE_LIMITS.buy.perUser!.max} per user from ${RATE_LIMITS.buy.perUser!.max + 1} IPs and ${RATE_LIMITS.buy.perIp.max} per IP from 3 users, then 429, 0 orders created`;
  });
});

describe.each(DIALECTS)('request limits behind a trusted proxy on %s', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(dialect, { TRUST_PROXY: '127.0.0.1' }, { rateLimits: RATE_LIMITS });
  });
  afterAll(() => t.close());

  it('counts per client address the proxy forwards, not per proxy', async () => {
    const client = { 'x-forwarded-for': uniqueIp() };
    const { passed } = await untilRefused(t.app, 'reset-pass', '127.0.0.1', 'en', client);
    expect(passed).toBe(RATE_LIMITS['reset-pass'].perIp.max);
    // Another client behind the same proxy still gets through.
    const other = await t.app.inject({ method: 'POST', url: '/api/reset-pass', payload: {}, remoteAddress: '127.0.0.1', headers: { 'x-forwarded-for': uniqueIp() } });
    expect(other.statusCode).toBe(400);
  });
});

describe('request limits with REDIS_URL', () => {
  const apps: TestApp[] = [];
  beforeAll(async () => {
    // A prefix of its own per run, so runs and deployments sharing this Redis never count together.
    const env = { REDIS_URL, REDIS_PREFIX: `resi-test-${randomBytes(6).toString('hex')}:` };
    apps.push(await createTestApp('sqlite', env, { rateLimits: RATE_LIMITS }), await createTestApp('sqlite', env, { rateLimits: RATE_LIMITS }));
  });
  afterAll(async () => {
    for (const a of apps) await a.close();
  });

  it('two API processes sharing Redis share the count', async () => {
    const ip = uniqueIp();
    const { passed, res } = await untilRefused(
      apps.map((a) => a.app),
      'login',
      ip,
      'zh-cn',
    );
    expect(passed).toBe(RATE_LIMITS.login.perIp.max);
    expectRefusal(res, 'zh-cn', 60);
    // Each process alone would have let max through: together they let max through, not twice that.
    expect((await apps[0]!.app.inject({ method: 'POST', url: '/api/login', payload: {}, remoteAddress: ip })).statusCode).toBe(429);
    expect((await apps[1]!.app.inject({ method: 'POST', url: '/api/login', payload: {}, remoteAddress: ip })).statusCode).toBe(429);
    recordFigure({
      id: 'api-rate-limits',
      threat: 'floods of captcha, mail-code, register, login, reset-pass and buy requests (one customer made 9,999 orders in 160 s)',
      test: 'apps/server/src/http/rate-limits.test.ts',
      figure: `requests from one IP answered before a 429 with Retry-After, within one minute: ${measuredPerIp.join(', ') || '(per-IP test not run)'}; buying ${buyMeasured || '(buy test not run)'}; two API processes sharing one Redis: ${passed} login requests from one IP passed in total (alternating), then both answered 429`,
    });
  });
});

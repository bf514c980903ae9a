import { createHmac } from 'node:crypto';
import http, { type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser, uniqueEmail } from '../../../test/accounts';
import { call } from '../../../test/auth-flows';
import { buy, seedCatalogue, signedIn } from '../../../test/commerce';
import { text } from '../../../test/i18n';
import { importInventory } from '../../../test/static-kit';
import { DIALECTS, type TestApp, createTestApp } from '../../../test/test-app';
import { DAY } from '../../lib/clock';
import { SEAL_LABELS, SealedBox } from '../../lib/sealed-box';
import { SessionService } from '../auth/session-service';
import { WebhookDestinations, destinationRules } from './webhook-destination';
import { RESPONSE_KEEP, WebhookSender } from './webhook-sender';

/*
 * Customer webhooks (docs/api.md#webhooks) through the real routes, the real paying transaction and a real
 * HTTP receiver on 127.0.0.1: signed deliveries, retries on the backoff schedule as the clock moves, giving up
 * after a day, replays, other customers' ids, and the destination rules of production.
 */

interface Hit {
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
}

/** A receiver recording every request; each path answers what the test sets (status 0: never answers). */
async function startReceiver() {
  const hits: Hit[] = [];
  const answers = new Map<string, { status: number; body: string; headers: Record<string, string> }>();
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      hits.push({ path: req.url!, headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
      const a = answers.get(req.url!) ?? { status: 200, body: 'ok', headers: {} };
      if (a.status !== 0) res.writeHead(a.status, { 'content-type': 'text/plain', ...a.headers }).end(a.body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    port,
    url: (path: string) => `http://127.0.0.1:${port}${path}`,
    hits: (path: string) => hits.filter((h) => h.path === path),
    answer: (path: string, status: number, body = '', headers: Record<string, string> = {}) => answers.set(path, { status, body, headers }),
    close: () => {
      server.closeAllConnections();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
type Receiver = Awaited<ReturnType<typeof startReceiver>>;

/** The signature a receiver computes on its own, from the secret, the timestamp header and the raw body. */
const expectedSignature = (secret: string, hit: Hit) => `v1=${createHmac('sha256', secret).update(`${hit.headers['x-resi-timestamp'] as string}.${hit.body}`).digest('hex')}`;

/** Polls `probe` until `ok` holds: the app's own delivery job may be the one that sends (its timer runs too). */
async function until<T>(probe: () => Promise<T> | T, ok: (v: T) => boolean): Promise<T> {
  for (let i = 0; ; i++) {
    const v = await probe();
    if (ok(v)) return v;
    if (i > 500) throw new Error(`condition not met: ${JSON.stringify(v).slice(0, 500)}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

let seq = 0;
const nextPath = (name: string) => `/${name}-${++seq}`;

describe.each(DIALECTS)('webhooks on %s', (dialect) => {
  let t: TestApp;
  let receiver: Receiver;
  beforeAll(async () => {
    t = await createTestApp(dialect);
    await seedCatalogue(t);
    receiver = await startReceiver();
  });
  afterAll(async () => {
    await receiver.close();
    await t.close();
  });

  const register = async (token: string, path: string, events: string[]) => {
    const res = await call(t.app, 'POST', '/api/user/webhooks', { token, body: { url: receiver.url(path), events } });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body.data as { id: number; url: string; events: string[]; secret: string };
  };
  const deliveries = async (token: string, id: number) => {
    const res = await call(t.app, 'GET', `/api/user/webhooks/${id}/deliveries`, { token });
    expect(res.status).toBe(200);
    return res.body.data.items as { id: number; status: string; attempts: number; eventId: string; nextAttemptAt: string | null; lastStatusCode: number | null; lastResponse: string | null; lastError: string | null; body: string; replayOf: number | null; createdAt: string; deliveredAt: string | null }[];
  };
  const deliver = () => t.app.webhooks.deliverDue();
  const nowSeconds = () => Math.floor(t.clock.now().getTime() / 1000);

  it('shows the secret once and stores it sealed', async () => {
    const { token, user } = await signedIn(t);
    const made = await register(token, nextPath('secret'), ['order.paid', 'static.expiring', 'order.paid']);
    expect(made).toMatchObject({ url: receiver.url(`/secret-${seq}`), events: ['order.paid', 'static.expiring'], enabled: true });
    expect(made.secret).toMatch(/^whsec_[\w-]{43}$/);

    const listed = await call(t.app, 'GET', '/api/user/webhooks', { token });
    expect(listed.body.data.items).toEqual([{ id: made.id, url: made.url, events: made.events, enabled: true, createdAt: expect.any(String) }]);
    expect(JSON.stringify(listed.body)).not.toContain(made.secret);

    const row = await t.db.db.selectFrom('webhook_endpoints').selectAll().where('user_id', '=', user.id).executeTakeFirstOrThrow();
    expect(row.secret_sealed).not.toContain(made.secret.slice(6));
    expect(new SealedBox(t.config.APP_SECRET, SEAL_LABELS.webhookSecret).open(row.secret_sealed)).toBe(made.secret);
  });

  it('sends a paid order once to the endpoints taking order.paid, signed so the receiver can verify it', async () => {
    const { token } = await signedIn(t);
    const paidPath = nextPath('paid');
    const otherPath = nextPath('other');
    const hook = await register(token, paidPath, ['order.paid']);
    await register(token, otherPath, ['static.replaced']);

    const orderNo = await buy(t, token, 2, 'sandbox');
    const form = { headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: '' };
    expect((await t.app.inject({ method: 'POST', url: `/api/pay/sandbox/${orderNo}/pay`, ...form })).statusCode).toBe(200);
    // Paying twice pays once, and reports once.
    await t.app.inject({ method: 'POST', url: `/api/pay/sandbox/${orderNo}/pay`, ...form });
    const queued = await t.db.db.selectFrom('webhook_deliveries').selectAll().where('endpoint_id', '=', hook.id).execute();
    expect(queued.map((d) => [d.event, d.status])).toEqual([['order.paid', 'pending']]);

    const sentAt = nowSeconds();
    await deliver();
    const [hit] = await until(() => receiver.hits(paidPath), (h) => h.length === 1);
    expect(hit!.headers).toMatchObject({
      'content-type': 'application/json',
      'x-resi-event': 'order.paid',
      'x-resi-delivery': String(queued[0]!.id),
      'x-resi-timestamp': String(sentAt),
      'user-agent': expect.stringMatching(/Webhooks\/1$/),
    });
    expect(hit!.headers['x-resi-signature']).toBe(expectedSignature(hook.secret, hit!));
    // A receiver holding another secret would refuse it.
    expect(hit!.headers['x-resi-signature']).not.toBe(expectedSignature('whsec_not-the-secret', hit!));
    const body = JSON.parse(hit!.body);
    expect(body).toEqual({ id: queued[0]!.event_id, type: 'order.paid', createdAt: expect.any(String), data: { order: expect.objectContaining({ orderNo, status: 'paid', amount: 2500, currency: 'USD', payMethod: 'sandbox' }) } });
    expect(body.id).toMatch(/^[0-9a-f-]{36}$/);

    const [logged] = await until(() => deliveries(token, hook.id), (d) => d[0]?.status === 'delivered');
    expect(logged).toMatchObject({ status: 'delivered', attempts: 1, lastStatusCode: 200, lastResponse: 'ok', lastError: null, nextAttemptAt: null, eventId: body.id, body: hit!.body, replayOf: null });
    // Nothing more goes out: not again to this endpoint, never to the one without order.paid.
    await deliver();
    expect(receiver.hits(paidPath)).toHaveLength(1);
    expect(receiver.hits(otherPath)).toHaveLength(0);
    expect(await t.db.db.selectFrom('webhook_deliveries').select('id').where('endpoint_id', '=', hook.id).execute()).toHaveLength(1);
  });

  it('queues an event in the caller\u2019s transaction: a change rolled back sends nothing', async () => {
    const { token, user } = await signedIn(t);
    const hook = await register(token, nextPath('rollback'), ['balance.empty']);
    await expect(
      t.db.db.transaction().execute(async (trx) => {
        expect(await t.app.webhooks.emit(user.id, 'balance.empty', { balanceBytes: 0 }, trx)).toBe(1);
        throw new Error('the change failed');
      }),
    ).rejects.toThrow('the change failed');
    expect(await deliveries(token, hook.id)).toEqual([]);
    // Disabled: no deliveries; enabled again: one.
    expect((await call(t.app, 'PUT', `/api/user/webhooks/${hook.id}`, { token, body: { enabled: false } })).body.data.enabled).toBe(false);
    expect(await t.app.webhooks.emit(user.id, 'balance.empty', { balanceBytes: 0 })).toBe(0);
    await call(t.app, 'PUT', `/api/user/webhooks/${hook.id}`, { token, body: { enabled: true } });
    expect(await t.app.webhooks.emit(user.id, 'balance.empty', { balanceBytes: 0 })).toBe(1);
    expect(await t.app.webhooks.emit(user.id, 'order.paid', {})).toBe(0);
  });

  it('retries a failing receiver at 30 s, 1 min, 2 min… and stops once it answers 2xx', async () => {
    const { token, user } = await signedIn(t);
    const path = nextPath('flaky');
    receiver.answer(path, 500, 'not now');
    const hook = await register(token, path, ['usage.threshold']);
    await t.app.webhooks.emit(user.id, 'usage.threshold', { threshold: 80 });

    const attemptAt: number[] = [];
    for (const [wait, attempts] of [
      [0, 1],
      [30_000, 2],
      [60_000, 3],
      [120_000, 4],
    ] as const) {
      // A moment before the retry is due nothing goes out.
      if (wait > 0) {
        t.clock.advance(wait - 1000);
        await deliver();
        expect(receiver.hits(path)).toHaveLength(attempts - 1);
        t.clock.advance(1000);
      }
      if (attempts === 4) receiver.answer(path, 204);
      attemptAt.push(t.clock.now().getTime());
      await deliver();
      await until(() => receiver.hits(path), (h) => h.length === attempts);
      const [d] = await until(() => deliveries(token, hook.id), (list) => list[0]!.attempts === attempts);
      if (attempts < 4) {
        expect(d).toMatchObject({ status: 'pending', lastStatusCode: 500, lastResponse: 'not now', lastError: 'answered 500', nextAttemptAt: new Date(attemptAt.at(-1)! + 30_000 * 2 ** (attempts - 1)).toISOString() });
      } else {
        expect(d).toMatchObject({ status: 'delivered', lastStatusCode: 204, lastResponse: null, lastError: null, nextAttemptAt: null });
      }
    }
    const hits = receiver.hits(path);
    // The same event every time, each attempt signed anew with its own timestamp.
    expect(new Set(hits.map((h) => JSON.parse(h.body).id)).size).toBe(1);
    expect(new Set(hits.map((h) => h.headers['x-resi-delivery'])).size).toBe(1);
    expect(hits.map((h) => Number(h.headers['x-resi-timestamp']))).toEqual(attemptAt.map((ms) => Math.floor(ms / 1000)));
    for (const h of hits) expect(h.headers['x-resi-signature']).toBe(expectedSignature(hook.secret, h));
  });

  it('waits as long as a busy receiver asks (Retry-After in seconds or as a date on a 429 or 503), never less than the backoff, at most an hour', async () => {
    const { token, user } = await signedIn(t);
    const path = nextPath('busy');
    const hook = await register(token, path, ['balance.empty']);
    /** The receiver's answer to the next attempt; the wait that attempt set before the one after. */
    const waitAfter = async (attempts: number, status: number, retryAfter: string) => {
      receiver.answer(path, status, 'busy', { 'retry-after': retryAfter });
      const at = t.clock.now().getTime();
      await deliver();
      const [d] = await until(() => deliveries(token, hook.id), (list) => list[0]?.attempts === attempts);
      expect(d).toMatchObject({ status: 'pending', lastStatusCode: status });
      t.clock.advance(Date.parse(d!.nextAttemptAt!) - at);
      return Date.parse(d!.nextAttemptAt!) - at;
    };
    await t.app.webhooks.emit(user.id, 'balance.empty', { balanceBytes: 0 });
    expect(await waitAfter(1, 503, '600')).toBe(600_000);
    // A date two hours on: an hour, the longest wait.
    expect(await waitAfter(2, 429, new Date(t.clock.now().getTime() + 2 * 3_600_000).toUTCString())).toBe(3_600_000);
    // Sooner than the backoff (2 min after a third failure): the backoff.
    expect(await waitAfter(3, 503, '1')).toBe(120_000);
    // On another status it asks nothing: the backoff (4 min after a fourth).
    expect(await waitAfter(4, 500, '900')).toBe(240_000);
    expect(receiver.hits(path)).toHaveLength(4);
  });

  it('gives up after a day of failures, and a replay sends the same event again, freshly signed', async () => {
    const { token, user } = await signedIn(t);
    const path = nextPath('down');
    receiver.answer(path, 503, 'down for maintenance');
    const hook = await register(token, path, ['static.replaced']);
    await t.app.webhooks.emit(user.id, 'static.replaced', { id: 1, ip: '203.0.113.9', previousIp: '203.0.113.8' });
    const created = t.clock.now().getTime();

    let d = (await deliveries(token, hook.id))[0]!;
    while (d.status === 'pending') {
      t.clock.advance(Math.max(0, Date.parse(d.nextAttemptAt!) - t.clock.now().getTime()));
      await deliver();
      const before = d.attempts;
      d = (await until(() => deliveries(token, hook.id), (list) => list[0]!.attempts > before))[0]!;
    }
    // 30 s doubling to an hour, then hourly: the 30th attempt comes 23 h 3 min 30 s in, the next would be past 24 h.
    expect(d).toMatchObject({ status: 'failed', attempts: 30, lastStatusCode: 503, lastResponse: 'down for maintenance', nextAttemptAt: null, deliveredAt: null });
    expect(receiver.hits(path)).toHaveLength(30);
    expect(t.clock.now().getTime() - created).toBe(83_010_000);
    expect(t.clock.now().getTime() - created).toBeLessThanOrEqual(DAY);
    // The job sends it no more.
    t.clock.advance(DAY);
    await deliver();
    expect(receiver.hits(path)).toHaveLength(30);

    receiver.answer(path, 200, 'thanks');
    t.clock.advance(5000);
    const replay = await call(t.app, 'POST', `/api/user/webhooks/${hook.id}/deliveries/${d.id}/replay`, { token, body: {} });
    expect(replay.status).toBe(200);
    expect(replay.body.data).toMatchObject({ status: 'delivered', attempts: 1, lastStatusCode: 200, lastResponse: 'thanks', eventId: d.eventId, body: d.body, replayOf: d.id });
    const last = receiver.hits(path).at(-1)!;
    expect(JSON.parse(last.body).id).toBe(d.eventId);
    expect(last.body).toBe(d.body);
    expect(Number(last.headers['x-resi-timestamp'])).toBe(nowSeconds());
    expect(last.headers['x-resi-signature']).toBe(expectedSignature(hook.secret, last));
    expect(last.headers['x-resi-signature']).not.toBe(receiver.hits(path)[0]!.headers['x-resi-signature']);
    // The log keeps both: the failed delivery as it was, and its replay.
    const log = await deliveries(token, hook.id);
    expect(log.map((x) => [x.status, x.replayOf])).toEqual([
      ['delivered', d.id],
      ['failed', null],
    ]);
    const failedOnly = await call(t.app, 'GET', `/api/user/webhooks/${hook.id}/deliveries?status=failed`, { token });
    expect(failedOnly.body.data).toMatchObject({ total: 1, page: 1, pageSize: 20 });
  });

  it('keeps each customer to their own endpoints and deliveries', async () => {
    const alice = await signedIn(t);
    const bob = await signedIn(t);
    const aliceHook = await register(alice.token, nextPath('alice'), ['balance.empty']);
    const aliceOther = await register(alice.token, nextPath('alice'), ['order.paid']);
    const bobHook = await register(bob.token, nextPath('bob'), ['balance.empty']);
    await t.app.webhooks.emit(alice.user.id, 'balance.empty', { balanceBytes: 0 });
    const [delivery] = await deliveries(alice.token, aliceHook.id);

    for (const [method, url, body] of [
      ['GET', `/api/user/webhooks/${aliceHook.id}/deliveries`, undefined],
      ['POST', `/api/user/webhooks/${aliceHook.id}/deliveries/${delivery!.id}/replay`, {}],
      // Bob's own endpoint with Alice's delivery.
      ['POST', `/api/user/webhooks/${bobHook.id}/deliveries/${delivery!.id}/replay`, {}],
      ['PUT', `/api/user/webhooks/${aliceHook.id}`, { url: receiver.url('/bob-now') }],
      ['DELETE', `/api/user/webhooks/${aliceHook.id}`, {}],
    ] as const) {
      const res = await call(t.app, method, url, { token: bob.token, body });
      expect([res.status, res.body.code], `${method} ${url}`).toEqual([404, 'NOT_FOUND']);
    }
    // Alice's delivery named under her other endpoint is not found either.
    expect((await call(t.app, 'POST', `/api/user/webhooks/${aliceOther.id}/deliveries/${delivery!.id}/replay`, { token: alice.token, body: {} })).status).toBe(404);
    expect((await call(t.app, 'GET', '/api/user/webhooks', { token: bob.token })).body.data.items.map((h: { id: number }) => h.id)).toEqual([bobHook.id]);
    expect((await deliveries(alice.token, aliceHook.id)).map((x) => x.id)).toEqual([delivery!.id]);

    // Deleting takes the endpoint and its log away; queued deliveries are never sent.
    expect((await call(t.app, 'DELETE', `/api/user/webhooks/${aliceHook.id}`, { token: alice.token, body: {} })).status).toBe(200);
    expect(await t.db.db.selectFrom('webhook_deliveries').select('id').where('endpoint_id', '=', aliceHook.id).execute()).toEqual([]);
    expect((await call(t.app, 'GET', `/api/user/webhooks/${aliceHook.id}/deliveries`, { token: alice.token })).status).toBe(404);
  });

  it('refuses bad endpoints clearly, more than ten, and API keys', async () => {
    const { token } = await signedIn(t);
    for (const [body, key] of [
      [{ url: 'ftp://example.com/hook', events: ['order.paid'] }, 'validation.webhookUrl'],
      [{ url: 'not a url', events: ['order.paid'] }, 'validation.webhookUrl'],
      [{ events: ['order.paid'] }, 'validation.webhookUrl'],
      [{ url: receiver.url('/x'), events: ['order.refunded'] }, 'validation.webhookEvents'],
      [{ url: receiver.url('/x'), events: [] }, 'validation.webhookEvents'],
    ] as const) {
      const res = await call(t.app, 'POST', '/api/user/webhooks', { token, body, lang: 'zh-cn' });
      expect([res.status, res.body.code], JSON.stringify(body)).toEqual([400, 'VALIDATION_FAILED']);
      expect(res.body.message).toContain(text('zh-cn', key));
    }
    const bad = await call(t.app, 'GET', '/api/user/webhooks/1/deliveries?status=lost', { token, lang: 'zh' });
    expect(bad.body.message).toContain(text('zh', 'validation.webhookDeliveryStatus'));
    expect((await call(t.app, 'GET', '/api/user/webhooks', { token })).body.data.items).toEqual([]);

    // Fifteen at once: ten places, however the requests interleave.
    const made = await Promise.all(Array.from({ length: 15 }, (_, i) => call(t.app, 'POST', '/api/user/webhooks', { token, body: { url: receiver.url(`/many/${i}`), events: ['order.paid'] }, lang: 'zh' })));
    const ids = made.filter((m) => m.status === 200).map((m) => m.body.data.id as number);
    expect(ids).toHaveLength(10);
    const full = made.find((m) => m.status !== 200)!;
    expect([full.status, full.body]).toEqual([409, { code: 'WEBHOOKS_FULL', message: text('zh', 'errors.WEBHOOKS_FULL', { max: 10 }) }]);
    expect(made.filter((m) => m.status !== 200).every((m) => m.body.code === 'WEBHOOKS_FULL')).toBe(true);
    await call(t.app, 'DELETE', `/api/user/webhooks/${ids[0]}`, { token, body: {} });
    await register(token, nextPath('many'), ['order.paid']);

    // Webhooks are managed with a session only.
    const key = (await call(t.app, 'POST', '/api/user/api-keys', { token, body: { name: 'reader', scopes: ['read', 'proxies'] } })).body.data.key as string;
    for (const [method, url] of [
      ['GET', '/api/user/webhooks'],
      ['POST', '/api/user/webhooks'],
      ['GET', `/api/user/webhooks/${ids[1]}/deliveries`],
    ] as const) {
      const res = await call(t.app, method, url, { token: key, body: method === 'POST' ? { url: receiver.url('/key'), events: ['order.paid'] } : undefined });
      expect([res.status, res.body.code], url).toEqual([403, 'API_KEY_NOT_ALLOWED']);
    }
  });

  it('reports a static IP replaced, and one expiring soon once per expiry', async () => {
    const admin = await signedIn(t, 'admin');
    const { token, user } = await signedIn(t);
    const path = nextPath('static');
    const hook = await register(token, path, ['static.replaced', 'static.expiring']);
    const regionId = (await call(t.app, 'GET', '/api/static-region')).body.data.items[0].id as number;
    const businessId = (await call(t.app, 'GET', '/api/business')).body.data.items[0].id as number;
    await importInventory(t, admin.token, { regionId, ips: ['203.0.113.41', '203.0.113.42', '203.0.113.43'] });
    const granted = await call(t.app, 'POST', '/api/manage/static-recharge', { token: admin.token, body: { userId: user.id, regionId, businessId, quantity: 2, days: 30, note: 'webhooks' } });
    expect(granted.status).toBe(200);
    const ips = (await call(t.app, 'GET', '/api/proxy/static', { token })).body.data.items as { id: number; ip: string; expiresAt: string }[];
    expect(ips).toHaveLength(2);

    const replaced = await call(t.app, 'POST', `/api/proxy/static/${ips[0]!.id}/replace`, { token, body: { reason: 'slow' } });
    expect(replaced.status).toBe(200);
    await deliver();
    const [hit] = await until(() => receiver.hits(path), (h) => h.length === 1);
    expect(JSON.parse(hit!.body)).toMatchObject({ type: 'static.replaced', data: { id: ips[0]!.id, previousIp: ips[0]!.ip, ip: replaced.body.data.ip, reason: 'slow', expiresAt: ips[0]!.expiresAt } });
    expect(hit!.headers['x-resi-signature']).toBe(expectedSignature(hook.secret, hit!));

    // 30 days left: nothing. Move the first IP's expiry 2 days away (within WEBHOOK_STATIC_EXPIRING_DAYS, 3).
    const expiring = () => t.app.jobs.tickNow('static_expiring_webhooks');
    await expiring();
    expect(await deliveries(token, hook.id)).toHaveLength(1);
    const soon = new Date(t.clock.now().getTime() + 2 * DAY).toISOString();
    await t.db.db.updateTable('static_allocations').set({ expires_at: soon }).where('id', '=', ips[0]!.id).execute();
    await expiring();
    await expiring();
    const queued = (await deliveries(token, hook.id)).filter((x) => x.body.includes('static.expiring'));
    expect(queued.map((x) => JSON.parse(x.body).data)).toEqual([{ id: ips[0]!.id, ip: replaced.body.data.ip, country: expect.any(String), city: expect.anything(), region: expect.any(String), expiresAt: soon, daysLeft: 2 }]);
    // A renewal moves the expiry: that expiry is reported once more when it comes near.
    const later = new Date(t.clock.now().getTime() + 2 * DAY + 3_600_000).toISOString();
    await t.db.db.updateTable('static_allocations').set({ expires_at: later }).where('id', '=', ips[0]!.id).execute();
    await expiring();
    await expiring();
    expect((await deliveries(token, hook.id)).filter((x) => x.body.includes('static.expiring'))).toHaveLength(2);
    await deliver();
    await until(() => receiver.hits(path), (h) => h.length === 3);
  });
});

describe.each(DIALECTS)('webhook destinations in production on %s', (dialect) => {
  let t: TestApp;
  let receiver: Receiver;
  let token: string;
  beforeAll(async () => {
    // Production refuses test-only switches, so this app has no captcha answer; not the demo: https only.
    t = await createTestApp(dialect, { NODE_ENV: 'production', CAPTCHA_TEST_ANSWER: '', DEMO_DATA: 'off' });
    receiver = await startReceiver();
    const user = await createUser(t, { email: uniqueEmail(), password: 'Secret123' });
    token = await new SessionService(t.db.db, t.clock).create(user.id, { ip: null, userAgent: null });
  });
  afterAll(async () => {
    await receiver.close();
    await t.close();
  });

  it('refuses plain http and loopback, private, link-local and metadata addresses when an endpoint is saved', async () => {
    const plain = await call(t.app, 'POST', '/api/user/webhooks', { token, body: { url: 'http://93.184.215.14/hook', events: ['order.paid'] }, lang: 'zh-cn' });
    expect([plain.status, plain.body.message]).toEqual([400, text('zh-cn', 'errors.VALIDATION_FAILED', { detail: text('zh-cn', 'validation.webhookUrlHttps') })]);
    for (const url of ['https://127.0.0.1/hook', 'https://[::1]/hook', 'https://localhost/hook', 'https://10.1.2.3/', 'https://192.168.1.1/', 'https://169.254.169.254/latest/meta-data', 'https://[fd00:ec2::254]/', 'https://[::ffff:127.0.0.1]/']) {
      const res = await call(t.app, 'POST', '/api/user/webhooks', { token, body: { url, events: ['order.paid'] } });
      expect([res.status, res.body.message], url).toEqual([400, text('en', 'errors.VALIDATION_FAILED', { detail: text('en', 'validation.webhookUrlPrivate') })]);
    }
    const unresolved = await call(t.app, 'POST', '/api/user/webhooks', { token, body: { url: 'https://no-such-host.invalid/hook', events: ['order.paid'] } });
    expect(unresolved.body.message).toContain(text('en', 'validation.webhookUrlUnresolved'));
    const ok = await call(t.app, 'POST', '/api/user/webhooks', { token, body: { url: 'https://93.184.215.14/hook', events: ['order.paid'] } });
    expect(ok.status).toBe(200);
    const moved = await call(t.app, 'PUT', `/api/user/webhooks/${ok.body.data.id}`, { token, body: { url: 'https://169.254.169.254/' } });
    expect(moved.status).toBe(400);
  });

  it('checks again at send time, after resolving, and never connects to a refused address', async () => {
    const user = await createUser(t, { email: uniqueEmail(), password: 'Secret123' });
    // Endpoints saved when their names were public, pointing inside now (DNS rebinding), or written before the rule.
    const box = new SealedBox(t.config.APP_SECRET, SEAL_LABELS.webhookSecret);
    const now = t.clock.now().toISOString();
    for (const url of [`https://localhost:${receiver.port}/rebound`, `https://127.0.0.1:${receiver.port}/literal`, `http://93.184.215.14/plain`]) {
      await t.db.db.insertInto('webhook_endpoints').values({ user_id: user.id, url, events: 'balance.empty', secret_sealed: box.seal('whsec_x'), enabled: 1, created_at: now, updated_at: now }).execute();
    }
    expect(await t.app.webhooks.emit(user.id, 'balance.empty', { balanceBytes: 0 })).toBe(3);
    await t.app.webhooks.deliverDue();
    const rows = await until(
      () => t.db.db.selectFrom('webhook_deliveries as d').innerJoin('webhook_endpoints as e', 'e.id', 'd.endpoint_id').select(['e.url', 'd.status', 'd.attempts', 'd.last_status_code', 'd.last_error']).where('e.user_id', '=', user.id).orderBy('d.id').execute(),
      (list) => list.every((r) => r.attempts === 1),
    );
    expect(rows.map((r) => [r.status, r.last_status_code])).toEqual([
      ['pending', null],
      ['pending', null],
      ['pending', null],
    ]);
    expect(rows[0]!.last_error).toMatch(/^refused: localhost resolves to (127\.0\.0\.1|::1), which is not a public address$/);
    expect(rows[1]!.last_error).toBe('refused: 127.0.0.1 is not a public address');
    expect(rows[2]!.last_error).toBe('refused: not an https:// URL');
    expect(receiver.hits('/rebound')).toEqual([]);
    expect(receiver.hits('/literal')).toEqual([]);
  });
});

describe('webhook destination rules and sender', () => {
  const fakeDns = (answers: Record<string, string[]>) => async (host: string) => {
    const list = answers[host];
    if (!list) throw Object.assign(new Error('not found'), { code: 'ENOTFOUND' });
    return list.map((address) => ({ address }));
  };

  it('production refuses any name with one non-public answer; the demo takes http but not private addresses; tests take anything', async () => {
    const dns = fakeDns({ 'hooks.example.com': ['93.184.215.14'], 'split.example.com': ['93.184.215.14', '10.0.0.7'], 'meta.example.com': ['169.254.169.254'] });
    const production = new WebhookDestinations(destinationRules('production', false), dns);
    expect(await production.problem('https://hooks.example.com/in')).toBeNull();
    expect(await production.problem('https://split.example.com/in')).toBe('webhookUrlPrivate');
    expect(await production.problem('https://meta.example.com/in')).toBe('webhookUrlPrivate');
    expect(await production.problem('https://gone.example.com/in')).toBe('webhookUrlUnresolved');
    expect(await production.problem('http://hooks.example.com/in')).toBe('webhookUrlHttps');

    const demo = new WebhookDestinations(destinationRules('production', true), dns);
    expect(await demo.problem('http://hooks.example.com/in')).toBeNull();
    expect(await demo.problem('http://127.0.0.1:8080/in')).toBe('webhookUrlPrivate');

    for (const env of ['test', 'development']) {
      const open = new WebhookDestinations(destinationRules(env, false), dns);
      expect(await open.problem('http://127.0.0.1:8080/in')).toBeNull();
      expect(open.lookup).toBeUndefined();
    }
  });

  it('gives up on a receiver that does not answer in time, and keeps 1 KB of a long answer', async () => {
    const receiver = await startReceiver();
    try {
      receiver.answer('/hang', 0);
      receiver.answer('/long', 200, 'x'.repeat(5000));
      const sender = new WebhookSender(new WebhookDestinations(destinationRules('test', false)), 'Test-Webhooks/1', 300);
      const base = { secret: 's', body: '{}', event: 'order.paid', deliveryId: 1, timestamp: 1 };
      expect(await sender.send({ ...base, url: receiver.url('/hang') })).toEqual({ statusCode: null, response: null, error: 'no answer within 0.3 s' });
      const long = await sender.send({ ...base, url: receiver.url('/long') });
      expect([long.statusCode, long.response?.length]).toEqual([200, RESPONSE_KEEP]);
      const refused = await sender.send({ ...base, url: 'http://127.0.0.1:1/closed' });
      expect(refused.error).toMatch(/ECONNREFUSED/);
    } finally {
      await receiver.close();
    }
  });
});

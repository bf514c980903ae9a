import { randomBytes } from 'node:crypto';
import { type Server, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call } from '../../test/auth-flows';
import { balance, buy, configureMethod, seedCatalogue, signedIn } from '../../test/commerce';
import { recordFigure } from '../../test/security-figures';
import { DIALECTS, type TestApp, createTestApp } from '../../test/test-app';
import { loadConfig } from '../config';
import { MINUTE } from '../lib/clock';
import { SESSION_TTL_S, WEBHOOK_TOLERANCE_S } from './card';
import { QUERY_INTERVAL_MS } from './poll-throttle';

const GB = 1024 ** 3;
/** The webhook-replay figure of both stores, recorded together once the second has run. */
const replayFigures: string[] = [];
const SECRET_KEY = `sk_test_${randomBytes(24).toString('hex')}`;
const WEBHOOK_SECRET = `whsec_${randomBytes(24).toString('base64url')}`;

interface SeenRequest {
  method: string;
  path: string;
  headers: Record<string, string | string[] | undefined>;
  form: Record<string, string>;
}

/** A local stand-in for Stripe's API: creates and retrieves Checkout Sessions in Stripe's JSON format. */
interface FakeStripe {
  base: string;
  requests: SeenRequest[];
  /** Every session created, by id: a test changes one (paid, amount…) and the next retrieve answers it. */
  sessions: Map<string, Record<string, unknown>>;
  /** The next request answers this HTTP status with a Stripe error body. */
  failWith: number | null;
  close(): Promise<void>;
}

async function startFakeStripe(): Promise<FakeStripe> {
  const fake = { requests: [], sessions: new Map(), failWith: null } as unknown as FakeStripe;
  let seq = 0;
  const server: Server = createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      const url = new URL(req.url!, 'http://x');
      const form = Object.fromEntries(new URLSearchParams(body));
      fake.requests.push({ method: req.method!, path: url.pathname, headers: req.headers, form });
      res.setHeader('content-type', 'application/json');
      const notFound = () => {
        res.statusCode = 404;
        return res.end(JSON.stringify({ error: { type: 'invalid_request_error', message: `Unrecognized request URL (${req.method}: ${url.pathname})` } }));
      };
      if (fake.failWith) {
        res.statusCode = fake.failWith;
        fake.failWith = null;
        return res.end(JSON.stringify({ error: { type: 'invalid_request_error', message: 'Invalid API Key provided: sk_test_****abcd' } }));
      }
      const retrieve = /^\/v1\/checkout\/sessions\/([^/]+)$/.exec(url.pathname);
      if (req.method === 'GET' && retrieve) {
        const session = fake.sessions.get(decodeURIComponent(retrieve[1]!));
        return session ? res.end(JSON.stringify(session)) : notFound();
      }
      if (req.method !== 'POST' || url.pathname !== '/v1/checkout/sessions') return notFound();
      seq += 1;
      const id = `cs_test_${process.pid}_${seq}_${randomBytes(6).toString('hex')}`;
      const session = {
        id,
        object: 'checkout.session',
        amount_total: Number(form['line_items[0][price_data][unit_amount]']),
        currency: form['line_items[0][price_data][currency]'],
        client_reference_id: form.client_reference_id,
        metadata: { orderNo: form['metadata[orderNo]'] },
        mode: 'payment',
        payment_status: 'unpaid',
        status: 'open',
        expires_at: Number(form.expires_at),
        success_url: form.success_url,
        cancel_url: form.cancel_url,
        url: `https://checkout.stripe.test/c/pay/${id}`,
        livemode: false,
      };
      fake.sessions.set(id, session);
      res.end(JSON.stringify(session));
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  fake.base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  fake.close = () => new Promise((r) => server.close(() => r()));
  return fake;
}

async function inBatches<T>(total: number, parallel: number, fn: () => Promise<T>): Promise<T[]> {
  const out: T[] = [];
  for (let done = 0; done < total; done += parallel) out.push(...(await Promise.all(Array.from({ length: Math.min(parallel, total - done) }, fn))));
  return out;
}

describe('STRIPE_API_BASE', () => {
  it('is a test-only switch, refused in production', () => {
    expect(() => loadConfig({ NODE_ENV: 'production', DATA_DIR: 'data-never-created', STRIPE_API_BASE: 'http://127.0.0.1:12111' })).toThrow(/STRIPE_API_BASE: test-only switch/);
    expect(() => loadConfig({ NODE_ENV: 'test', STRIPE_API_BASE: 'ftp://127.0.0.1' })).toThrow(/STRIPE_API_BASE/);
  });
});

describe.each(DIALECTS)('card (Stripe Checkout) on %s', (dialect) => {
  let t: TestApp;
  let stripe: FakeStripe;
  let admin: string;
  const logs: string[] = [];
  beforeAll(async () => {
    stripe = await startFakeStripe();
    t = await createTestApp(dialect, { STRIPE_API_BASE: stripe.base }, { log: (line) => logs.push(line) });
    await seedCatalogue(t);
    admin = (await signedIn(t, 'admin')).token;
    await configureMethod(t, admin, 'card', {}, { secretKey: SECRET_KEY, webhookSecret: WEBHOOK_SECRET });
  });
  afterAll(async () => {
    await t.close();
    await stripe.close();
  });

  const nowS = () => Math.floor(t.clock.now().getTime() / 1000);
  const events = (orderNo: string) => t.db.db.selectFrom('payment_events').selectAll().where('order_no', '=', orderNo).orderBy('id').execute();
  const grants = (orderNo: string) =>
    t.db.db.selectFrom('traffic_grants').innerJoin('orders', 'orders.id', 'traffic_grants.order_id').select('traffic_grants.bytes').where('orders.order_no', '=', orderNo).execute();
  const order = (orderNo: string) => t.db.db.selectFrom('orders').selectAll().where('order_no', '=', orderNo).executeTakeFirstOrThrow();

  /** A Stripe event about a paid Checkout Session of `orderNo`, as Stripe serializes it. */
  function sessionEvent(o: { order_no: string; provider_ref: string | null }, change: Record<string, unknown> = {}, type = 'checkout.session.completed') {
    return JSON.stringify(
      {
        id: `evt_${randomBytes(12).toString('hex')}`,
        object: 'event',
        api_version: '2026-10-28.endive',
        created: nowS(),
        livemode: false,
        type,
        data: {
          object: {
            id: o.provider_ref,
            object: 'checkout.session',
            amount_total: 300,
            currency: 'usd',
            client_reference_id: o.order_no,
            metadata: { orderNo: o.order_no },
            mode: 'payment',
            payment_intent: `pi_${randomBytes(8).toString('hex')}`,
            payment_status: 'paid',
            status: 'complete',
            ...change,
          },
        },
      },
      null,
      2,
    );
  }

  const webhook = async (payload: string, opts: { secret?: string; timestamp?: number; header?: string | null } = {}) => {
    const header = opts.header === undefined ? Stripe.webhooks.generateTestHeaderString({ payload, secret: opts.secret ?? WEBHOOK_SECRET, timestamp: opts.timestamp ?? nowS() }) : opts.header;
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/pay/notify/card',
      headers: { 'content-type': 'application/json; charset=utf-8', ...(header === null ? {} : { 'stripe-signature': header }) },
      payload,
    });
    return { status: res.statusCode, body: res.body, type: res.headers['content-type'] };
  };
  const ok = { status: 200, body: '{"received":true}', type: 'application/json; charset=utf-8' };

  it('buying opens a Checkout Session for the order and redirects to its page', async () => {
    const { token } = await signedIn(t);
    const before = stripe.requests.length;
    const res = await call(t.app, 'POST', '/api/buy/dynamic', { token, body: { goodsId: 2, payMethod: 'card' }, lang: 'zh-cn' });
    expect(res.status).toBe(200);
    const orderNo = res.body.data.order.orderNo as string;
    const row = await order(orderNo);
    expect(res.body.data.payment).toEqual({ type: 'redirect', url: `https://checkout.stripe.test/c/pay/${row.provider_ref}` });
    expect(row.provider_ref).toMatch(/^cs_test_/);

    expect(stripe.requests.slice(before)).toHaveLength(1);
    const sent = stripe.requests.at(-1)!;
    expect(sent).toMatchObject({ method: 'POST', path: '/v1/checkout/sessions' });
    expect(sent.headers.authorization).toBe(`Bearer ${SECRET_KEY}`);
    expect(sent.headers['idempotency-key']).toBe(`checkout-${orderNo}`);
    expect(sent.form).toEqual({
      mode: 'payment',
      'line_items[0][price_data][currency]': 'usd',
      'line_items[0][price_data][unit_amount]': '2500',
      'line_items[0][price_data][product_data][name]': '基础 10 GB',
      'line_items[0][quantity]': '1',
      client_reference_id: orderNo,
      'metadata[orderNo]': orderNo,
      locale: 'zh',
      success_url: `http://localhost:8080/manage/center/rechargeDetails?orderNo=${orderNo}`,
      cancel_url: 'http://localhost:8080/manage/center/buy',
      expires_at: String(nowS() + SESSION_TTL_S),
    });
    // Stripe's minimum session lifetime is 30 minutes.
    expect(SESSION_TTL_S).toBeGreaterThan(30 * 60);
  });

  it('a valid webhook credits once; another event about the same session changes nothing', async () => {
    const { token } = await signedIn(t);
    const o = await order(await buy(t, token, 1, 'card'));
    expect(await webhook(sessionEvent(o))).toEqual(ok);
    expect(await order(o.order_no)).toMatchObject({ status: 'paid', paid_by: 'webhook', provider_ref: o.provider_ref });
    expect(await balance(t, token)).toBe(GB);
    expect(await webhook(sessionEvent(o, {}, 'checkout.session.async_payment_succeeded'))).toEqual(ok);
    expect(await grants(o.order_no)).toEqual([{ bytes: GB }]);
    expect(await events(o.order_no)).toEqual([
      expect.objectContaining({ provider: 'card', event_id: o.provider_ref, amount: '300', asset: 'USD', result: 'credited', review_status: null }),
    ]);
  });

  it('the same webhook replayed 1,000 times, 100 at a time, credits once', async () => {
    const { token } = await signedIn(t);
    const o = await order(await buy(t, token, 1, 'card'));
    const payload = sessionEvent(o);
    const header = Stripe.webhooks.generateTestHeaderString({ payload, secret: WEBHOOK_SECRET, timestamp: nowS() });
    const answers = await inBatches(1000, 100, () => webhook(payload, { header }));
    expect(answers.filter((a) => a.status === 200 && a.body === ok.body)).toHaveLength(1000);
    expect(await grants(o.order_no)).toEqual([{ bytes: GB }]);
    expect(await events(o.order_no)).toHaveLength(1);
    expect(await balance(t, token)).toBe(GB);
    replayFigures.push(
      `${dialect}: ${answers.length} deliveries of one signed Stripe event (100 at a time), ${answers.filter((a) => a.status === 200).length} answered 200, ` +
        `${(await grants(o.order_no)).length} credit applied, ${(await events(o.order_no)).length} payment event stored`,
    );
    recordFigure({
      id: 'webhook-replay',
      threat: 'A captured payment webhook replayed to credit an order more than once',
      test: 'apps/server/src/payments/card.test.ts › the same webhook replayed 1,000 times, 100 at a time, credits once',
      figure: replayFigures.join('; '),
    });
  });

  it('forged, tampered, stale or unsigned webhooks answer 400 and change nothing', async () => {
    const { token } = await signedIn(t);
    const o = await order(await buy(t, token, 1, 'card'));
    const payload = sessionEvent(o);
    const signed = Stripe.webhooks.generateTestHeaderString({ payload, secret: WEBHOOK_SECRET, timestamp: nowS() });
    const cheap = sessionEvent(o, { amount_total: 1 });
    const cases = {
      forged: await webhook(payload, { secret: `whsec_${randomBytes(24).toString('base64url')}` }),
      tampered: await webhook(payload.replace('"amount_total": 300', '"amount_total": 30000'), { header: signed }),
      'tampered the other way': await webhook(payload, { header: Stripe.webhooks.generateTestHeaderString({ payload: cheap, secret: WEBHOOK_SECRET, timestamp: nowS() }) }),
      stale: await webhook(payload, { timestamp: nowS() - WEBHOOK_TOLERANCE_S - 1 }),
      unsigned: await webhook(payload, { header: null }),
      'garbage header': await webhook(payload, { header: 't=abc,v1=def' }),
    };
    for (const [what, res] of Object.entries(cases)) expect({ status: res.status, body: res.body }, what).toEqual({ status: 400, body: 'rejected' });
    expect(await order(o.order_no)).toMatchObject({ status: 'pending', paid_at: null });
    expect(await events(o.order_no)).toEqual([]);
    expect(await grants(o.order_no)).toEqual([]);
    // Age is measured on this server's clock: ten minutes on, a signature made at the wall-clock time of
    // the test run is stale, and one within the tolerance is still taken.
    t.clock.advance(10 * MINUTE);
    expect((await webhook(payload, { timestamp: Math.floor(Date.now() / 1000) })).status).toBe(400);
    expect(await events(o.order_no)).toEqual([]);
    expect(await webhook(payload, { timestamp: nowS() - WEBHOOK_TOLERANCE_S + 1 })).toEqual(ok);
    expect(await balance(t, token)).toBe(GB);
  });

  it('a webhook dated beyond the tolerance in the future is refused like a stale one', async () => {
    const { token } = await signedIn(t);
    const o = await order(await buy(t, token, 1, 'card'));
    const payload = sessionEvent(o);
    const ahead = await webhook(payload, { timestamp: nowS() + WEBHOOK_TOLERANCE_S + 1 });
    const farAhead = await webhook(payload, { timestamp: nowS() + 30 * 24 * 3600 });
    for (const res of [ahead, farAhead]) expect({ status: res.status, body: res.body }).toEqual({ status: 400, body: 'rejected' });
    expect(await order(o.order_no)).toMatchObject({ status: 'pending', paid_at: null });
    expect(await events(o.order_no)).toEqual([]);
    expect(logs.join('\n')).toContain('timestamp in the future beyond the tolerance zone');
    // Within the tolerance either way, a signer's clock a little ahead of ours is still believed.
    expect(await webhook(payload, { timestamp: nowS() + WEBHOOK_TOLERANCE_S - 1 })).toEqual(ok);
    expect(await balance(t, token)).toBe(GB);
    if (dialect === 'sqlite') {
      recordFigure({
        id: 'stripe-future-event',
        threat: 'Stripe webhook pre-signed for a future time and replayed later',
        test: 'apps/server/src/payments/card.test.ts: a webhook dated beyond the tolerance in the future is refused like a stale one',
        figure: `signatures dated ${WEBHOOK_TOLERANCE_S + 1} s and 30 days ahead: 2 of 2 answered 400 and credited nothing; one ${WEBHOOK_TOLERANCE_S - 1} s ahead was accepted and credited once`,
      });
    }
  });

  it('verified payments that do not match the order go to review and credit nothing', async () => {
    const { token } = await signedIn(t);
    const o = await order(await buy(t, token, 1, 'card'));
    const cases: [Record<string, unknown>, string][] = [
      [{ id: `cs_test_other_${randomBytes(4).toString('hex')}`, amount_total: 299 }, 'AMOUNT_MISMATCH'],
      [{ id: `cs_test_other_${randomBytes(4).toString('hex')}`, currency: 'eur' }, 'CURRENCY_MISMATCH'],
    ];
    for (const [change] of cases) expect(await webhook(sessionEvent(o, change))).toEqual(ok);
    expect(await order(o.order_no)).toMatchObject({ status: 'pending' });
    expect(await grants(o.order_no)).toEqual([]);
    const review = await call(t.app, 'GET', '/api/manage/payment-review?pageSize=100', { token: admin });
    const mine = review.body.data.items.filter((r: { orderNo: string }) => r.orderNo === o.order_no);
    expect(mine.map((r: { eventId: string; reason: string; status: string }) => [r.eventId, r.reason, r.status]).sort()).toEqual(
      cases.map(([change, reason]) => [change.id, reason, 'open']).sort(),
    );
  });

  it('events that are not a paid session are acknowledged and recorded nowhere', async () => {
    const { token } = await signedIn(t);
    const o = await order(await buy(t, token, 1, 'card'));
    expect(await webhook(sessionEvent(o, { payment_status: 'unpaid' }))).toEqual(ok);
    expect(await webhook(sessionEvent(o, {}, 'checkout.session.expired'))).toEqual(ok);
    expect(await webhook(sessionEvent(o, {}, 'charge.refunded'))).toEqual(ok);
    expect(await order(o.order_no)).toMatchObject({ status: 'pending' });
    expect(await events(o.order_no)).toEqual([]);
  });

  it('a Stripe error or a currency the account does not charge cancels the order', async () => {
    const { token } = await signedIn(t);
    stripe.failWith = 401;
    const failed = await call(t.app, 'POST', '/api/buy/dynamic', { token, body: { goodsId: 1, payMethod: 'card' } });
    expect(failed.status).toBe(502);
    expect(failed.body.code).toBe('PAYMENT_START_FAILED');

    await configureMethod(t, admin, 'card', { currency: 'eur' });
    const before = stripe.requests.length;
    const other = await call(t.app, 'POST', '/api/buy/dynamic', { token, body: { goodsId: 1, payMethod: 'card' } });
    await configureMethod(t, admin, 'card', { currency: '' });
    expect(other.status).toBe(400);
    expect(other.body).toEqual({ code: 'PAY_METHOD_CURRENCY', message: 'This payment method does not accept payments in USD. Please choose another method.' });
    expect(stripe.requests.length).toBe(before);

    const orders = (await call(t.app, 'GET', '/api/record/dynamic-order', { token })).body.data.items;
    expect(orders.map((x: { status: string }) => x.status)).toEqual(['cancelled', 'cancelled']);
    expect(logs.join('\n')).toContain('payment could not be started');
  });

  it('both secrets are required before the method can be switched on', async () => {
    const res = await call(t.app, 'POST', '/api/manage/pay-config', { token: admin, body: { method: 'card', enabled: true, secrets: { webhookSecret: '' } } });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('PAY_METHOD_INCOMPLETE');
    const bad = await call(t.app, 'POST', '/api/manage/pay-config', { token: admin, body: { method: 'card', enabled: true, settings: { currency: 'dollars' } } });
    expect(bad.body.code).toBe('PAY_METHOD_INCOMPLETE');
    const { token } = await signedIn(t);
    expect((await call(t.app, 'GET', '/api/pay/methods', { token })).body.data.methods).toContain('card');
  });

  it('a payment for an order that expired goes to review, not to the customer', async () => {
    const { token } = await signedIn(t);
    const o = await order(await buy(t, token, 1, 'card'));
    t.clock.advance(31 * MINUTE);
    expect(await webhook(sessionEvent(o))).toEqual(ok);
    expect(await balance(t, token)).toBe(0);
    expect((await order(o.order_no)).status).not.toBe('paid');
    expect(await events(o.order_no)).toEqual([expect.objectContaining({ event_id: o.provider_ref, result: 'review', reason: 'ORDER_NOT_PENDING', review_status: 'open' })]);
  });

  describe('when the webhook is missed, order-check asks Stripe for the session', () => {
    const check = async (token: string, orderNo: string) => (await call(t.app, 'POST', '/api/order-check', { token, body: { orderNo } })).body.data.status as string;
    const retrievals = (sessionId: string) => stripe.requests.filter((r) => r.method === 'GET' && r.path === `/v1/checkout/sessions/${sessionId}`);
    const pay = (sessionId: string, change: Record<string, unknown> = {}) =>
      Object.assign(stripe.sessions.get(sessionId)!, { payment_status: 'paid', status: 'complete', payment_intent: `pi_${randomBytes(8).toString('hex')}`, ...change });

    it('pays a paid session through fulfilment, at most once per 10 s per order; the late webhook is a duplicate', async () => {
      const { token } = await signedIn(t);
      const o = await order(await buy(t, token, 1, 'card'));
      expect(await check(token, o.order_no)).toBe('pending');
      expect(retrievals(o.provider_ref!)).toHaveLength(1);
      expect(retrievals(o.provider_ref!)[0]!.headers.authorization).toBe(`Bearer ${SECRET_KEY}`);

      pay(o.provider_ref!);
      // Asked a moment ago: this poll does not ask again, so the order is still pending.
      t.clock.advance(QUERY_INTERVAL_MS - 1);
      expect(await check(token, o.order_no)).toBe('pending');
      expect(retrievals(o.provider_ref!)).toHaveLength(1);
      t.clock.advance(1);
      expect(await check(token, o.order_no)).toBe('paid');
      expect(retrievals(o.provider_ref!)).toHaveLength(2);
      expect(await order(o.order_no)).toMatchObject({ status: 'paid', paid_by: 'poll', provider_ref: o.provider_ref });
      expect(await balance(t, token)).toBe(GB);

      // Stripe delivers the webhook after all: the same session, so nothing more happens.
      expect(await webhook(sessionEvent(o))).toEqual(ok);
      expect(await grants(o.order_no)).toEqual([{ bytes: GB }]);
      expect(await events(o.order_no)).toEqual([expect.objectContaining({ event_id: o.provider_ref, result: 'credited', review_status: null })]);
      // A paid order is not asked about again.
      t.clock.advance(QUERY_INTERVAL_MS);
      expect(await check(token, o.order_no)).toBe('paid');
      expect(retrievals(o.provider_ref!)).toHaveLength(2);
    });

    it('a paid session that does not match the order credits nothing', async () => {
      const { token } = await signedIn(t);
      const cheap = await order(await buy(t, token, 1, 'card'));
      pay(cheap.provider_ref!, { amount_total: 1 });
      expect(await check(token, cheap.order_no)).toBe('pending');
      expect(await events(cheap.order_no)).toEqual([expect.objectContaining({ event_id: cheap.provider_ref, result: 'review', reason: 'AMOUNT_MISMATCH' })]);

      const euro = await order(await buy(t, token, 1, 'card'));
      pay(euro.provider_ref!, { currency: 'eur' });
      expect(await check(token, euro.order_no)).toBe('pending');
      expect(await events(euro.order_no)).toEqual([expect.objectContaining({ result: 'review', reason: 'CURRENCY_MISMATCH' })]);

      // A session naming another order is not this order's payment: not even recorded.
      const other = await order(await buy(t, token, 1, 'card'));
      pay(other.provider_ref!, { metadata: { orderNo: cheap.order_no }, client_reference_id: cheap.order_no });
      expect(await check(token, other.order_no)).toBe('pending');
      expect(await t.db.db.selectFrom('payment_events').select('id').where('event_id', '=', other.provider_ref!).execute()).toEqual([]);
      expect(await balance(t, token)).toBe(0);
    });

    it('an unpaid session, a Stripe error or an expired order leave the order as it is', async () => {
      const { token } = await signedIn(t);
      const o = await order(await buy(t, token, 1, 'card'));
      stripe.failWith = 401;
      expect(await check(token, o.order_no)).toBe('pending');
      expect(stripe.failWith).toBeNull();
      t.clock.advance(QUERY_INTERVAL_MS);
      expect(await check(token, o.order_no)).toBe('pending');
      expect(retrievals(o.provider_ref!)).toHaveLength(2);

      pay(o.provider_ref!);
      t.clock.advance(31 * MINUTE);
      const before = retrievals(o.provider_ref!).length;
      expect(await check(token, o.order_no)).toBe('expired');
      expect(retrievals(o.provider_ref!)).toHaveLength(before);
      expect(await events(o.order_no)).toEqual([]);
      expect(await balance(t, token)).toBe(0);
    });
  });

  it('logs rejected webhooks with a reason and never a secret', async () => {
    const lines = logs.join('\n');
    expect(lines).toContain('payment notification rejected');
    expect(lines).toContain('Timestamp outside the tolerance zone');
    expect(lines).toContain('No signatures found matching the expected signature');
    for (const secret of [SECRET_KEY, WEBHOOK_SECRET]) {
      expect(lines).not.toContain(secret);
      expect(lines).not.toContain(secret.slice(-24));
    }
  });
});

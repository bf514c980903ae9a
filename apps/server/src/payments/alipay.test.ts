import { type KeyObject, createSign, createVerify, generateKeyPairSync, randomBytes } from 'node:crypto';
import { type Server, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call } from '../../test/auth-flows';
import { balance, buy, configureMethod, signedIn } from '../../test/commerce';
import { DIALECTS, type TestApp, createTestApp } from '../../test/test-app';
import { MINUTE } from '../lib/clock';
import { seedDemoCatalogue } from '../modules/catalogue/demo-seed';
import { QUERY_INTERVAL_MS, beijingTime, fromYuan, privateKeyType, toYuan } from './alipay';

const GB = 1024 ** 3;
const APP_ID = '2021000123456789';
const SELLER_ID = '2088102177000001';
const form = { 'content-type': 'application/x-www-form-urlencoded' };

// Generated here, never stored: the merchant's app key, the key playing Alipay's platform, and a forger's.
const rsa = () => generateKeyPairSync('rsa', { modulusLength: 2048 });
const merchant = rsa();
const platform = rsa();
const forger = rsa();
/** As Alipay's key tool and console show keys: one bare base64 line, no PEM armour. */
const bare = (pem: string) => pem.replace(/-----[A-Z ]+-----/g, '').replace(/\s+/g, '');
const merchantPrivateKey = bare(merchant.privateKey.export({ type: 'pkcs1', format: 'pem' }) as string);
const platformPublicKey = bare(platform.publicKey.export({ type: 'spki', format: 'pem' }) as string);

/** Alipay's notification signature: sorted `k=v` joined by `&`, without sign and sign_type, RSA-SHA256, base64. */
function alipaySign(params: Record<string, string>, key: KeyObject): string {
  const content = Object.keys(params)
    .filter((k) => k !== 'sign' && k !== 'sign_type')
    .sort()
    .map((k) => `${k}=${params[k]}`)
    .join('&');
  return createSign('RSA-SHA256').update(content, 'utf8').sign(key, 'base64');
}

const signedBody = (params: Record<string, string>, key = platform.privateKey) => new URLSearchParams({ ...params, sign: alipaySign(params, key) }).toString();

let tradeSeq = 0;
/** A TRADE_SUCCESS notification as Alipay posts it for a 3.00 CNY page payment. */
function notification(orderNo: string, change: Record<string, string> = {}): Record<string, string> {
  tradeSeq += 1;
  return {
    gmt_create: '2026-11-23 10:00:00',
    charset: 'utf-8',
    gmt_payment: '2026-11-23 10:00:05',
    notify_time: '2026-11-23 10:00:06',
    subject: `入门 1 GB ${orderNo}`,
    sign_type: 'RSA2',
    buyer_id: '2088102177846880',
    invoice_amount: '3.00',
    version: '1.0',
    notify_id: randomBytes(16).toString('hex'),
    fund_bill_list: '[{"amount":"3.00","fundChannel":"ALIPAYACCOUNT"}]',
    notify_type: 'trade_status_sync',
    out_trade_no: orderNo,
    total_amount: '3.00',
    trade_status: 'TRADE_SUCCESS',
    trade_no: `2026112322001${process.pid}${String(tradeSeq).padStart(6, '0')}`,
    auth_app_id: APP_ID,
    receipt_amount: '3.00',
    point_amount: '0.00',
    app_id: APP_ID,
    buyer_pay_amount: '3.00',
    seller_id: SELLER_ID,
    ...change,
  };
}

async function inBatches<T>(total: number, parallel: number, fn: () => Promise<T>): Promise<T[]> {
  const out: T[] = [];
  for (let done = 0; done < total; done += parallel) out.push(...(await Promise.all(Array.from({ length: Math.min(parallel, total - done) }, fn))));
  return out;
}

/** A local stand-in for Alipay's gateway answering alipay.trade.query, signed like Alipay signs responses. */
interface FakeGateway {
  url: string;
  paid: Map<string, { tradeNo: string; amount: string }>;
  hits: Map<string, number>;
  /** Whether every request that reached it carried a valid merchant signature. */
  requestsSigned: boolean;
  signWith: KeyObject;
  close(): Promise<void>;
}

async function startFakeGateway(): Promise<FakeGateway> {
  const gw = { paid: new Map(), hits: new Map(), requestsSigned: true, signWith: platform.privateKey } as FakeGateway;
  const server: Server = createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      const params: Record<string, string> = Object.fromEntries([...new URL(req.url!, 'http://x').searchParams, ...new URLSearchParams(body)]);
      // Requests are signed with the merchant key over every parameter except sign, sign_type included.
      const content = Object.keys(params)
        .filter((k) => k !== 'sign')
        .sort()
        .map((k) => `${k}=${params[k]}`)
        .join('&');
      if (!createVerify('RSA-SHA256').update(content, 'utf8').verify(merchant.publicKey, params.sign ?? '', 'base64')) gw.requestsSigned = false;
      const orderNo = (JSON.parse(params.biz_content ?? '{}') as { out_trade_no?: string }).out_trade_no ?? '';
      gw.hits.set(orderNo, (gw.hits.get(orderNo) ?? 0) + 1);
      const trade = gw.paid.get(orderNo);
      const inner = JSON.stringify(
        trade
          ? { code: '10000', msg: 'Success', out_trade_no: orderNo, trade_no: trade.tradeNo, trade_status: 'TRADE_SUCCESS', total_amount: trade.amount, buyer_logon_id: 'abc***@example.com' }
          : { code: '40004', msg: 'Business Failed', sub_code: 'ACQ.TRADE_NOT_EXIST', sub_msg: '交易不存在', out_trade_no: orderNo },
      );
      const sign = createSign('RSA-SHA256').update(inner, 'utf8').sign(gw.signWith, 'base64');
      res.setHeader('content-type', 'application/json;charset=utf-8');
      res.end(`{"alipay_trade_query_response":${inner},"sign":"${sign}"}`);
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  gw.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/gateway.do`;
  gw.close = () => new Promise((r) => server.close(() => r()));
  return gw;
}

describe('alipay amounts and keys', () => {
  it('converts between minor units and decimal yuan exactly', () => {
    expect([0, 1, 10, 300, 2500, 123456789].map(toYuan)).toEqual(['0.00', '0.01', '0.10', '3.00', '25.00', '1234567.89']);
    expect(['3.00', '3', '3.1', '0.01', '1234567.89', '0.29'].map(fromYuan)).toEqual([300, 300, 310, 1, 123456789, 29]);
    for (const bad of ['', '-1.00', '1.001', '1e3', ' 3.00', '3.00 ', '0x10', '3,00', 'NaN']) expect(fromYuan(bad), bad).toBeNull();
  });

  it('writes timestamps in Beijing time', () => {
    expect(beijingTime(new Date('2026-11-23T18:30:05.999Z'))).toBe('2026-11-24 02:30:05');
  });

  it('reads private keys in the forms Alipay hands out and refuses anything else', () => {
    const pem = (type: 'pkcs1' | 'pkcs8') => merchant.privateKey.export({ type, format: 'pem' }) as string;
    expect(privateKeyType(pem('pkcs1'))).toBe('PKCS1');
    expect(privateKeyType(pem('pkcs8'))).toBe('PKCS8');
    expect(privateKeyType(bare(pem('pkcs1')))).toBe('PKCS1');
    expect(privateKeyType(bare(pem('pkcs8')))).toBe('PKCS8');
    expect(privateKeyType(platformPublicKey)).toBeNull();
    expect(privateKeyType('not a key')).toBeNull();
    expect(privateKeyType(undefined)).toBeNull();
  });
});

describe.each(DIALECTS)('alipay on %s', (dialect) => {
  let t: TestApp;
  let gw: FakeGateway;
  let admin: string;
  const logs: string[] = [];
  beforeAll(async () => {
    gw = await startFakeGateway();
    t = await createTestApp(dialect, {}, { log: (line) => logs.push(line) });
    // Alipay takes yuan: this shop is priced in CNY (package 1: 3.00).
    await seedDemoCatalogue(t.db.db, t.clock, 'CNY');
    admin = (await signedIn(t, 'admin')).token;
    await configureMethod(t, admin, 'alipay', { appId: APP_ID, sellerId: SELLER_ID, gateway: gw.url, alipayPublicKey: platformPublicKey }, { privateKey: merchantPrivateKey });
  });
  afterAll(async () => {
    await t.close();
    await gw.close();
  });

  const notify = async (payload: string) => {
    const res = await t.app.inject({ method: 'POST', url: '/api/pay/notify/alipay', headers: form, payload });
    return { status: res.statusCode, body: res.body };
  };
  const events = (orderNo: string) => t.db.db.selectFrom('payment_events').selectAll().where('order_no', '=', orderNo).orderBy('id').execute();
  const grants = (orderNo: string) =>
    t.db.db.selectFrom('traffic_grants').innerJoin('orders', 'orders.id', 'traffic_grants.order_id').select('traffic_grants.bytes').where('orders.order_no', '=', orderNo).execute();
  const order = (orderNo: string) => t.db.db.selectFrom('orders').selectAll().where('order_no', '=', orderNo).executeTakeFirstOrThrow();

  it('is offered once configured, and refuses keys it cannot use', async () => {
    const { token } = await signedIn(t);
    expect((await call(t.app, 'GET', '/api/pay/methods', { token })).body.data.methods).toContain('alipay');
    const bad = await call(t.app, 'POST', '/api/manage/pay-config', { token: admin, body: { method: 'alipay', enabled: true, secrets: { privateKey: 'MIIEnotakey' } } });
    expect(bad.status).toBe(400);
    expect(bad.body.code).toBe('PAY_METHOD_INCOMPLETE');
    const cfg = (await call(t.app, 'GET', '/api/manage/pay-config', { token: admin })).body.data.methods.find((m: { method: string }) => m.method === 'alipay');
    expect(cfg).toMatchObject({ enabled: true, settings: { appId: APP_ID, alipayPublicKey: platformPublicKey }, secrets: { privateKey: `••••${merchantPrivateKey.slice(-4)}` } });
  });

  it('page payment: a GET of alipay.trade.page.pay at the configured gateway, signed with the merchant key', async () => {
    const { token } = await signedIn(t);
    const res = await call(t.app, 'POST', '/api/buy/dynamic', { token, body: { goodsId: 1, payMethod: 'alipay' } });
    expect(res.status).toBe(200);
    const { order: o, payment } = res.body.data;
    expect(o).toMatchObject({ status: 'pending', amount: 300, currency: 'CNY', payMethod: 'alipay' });
    expect(payment.type).toBe('redirect');
    const url = new URL(payment.url);
    expect(`${url.origin}${url.pathname}`).toBe(gw.url);
    const q = Object.fromEntries(url.searchParams);
    expect(q).toMatchObject({
      method: 'alipay.trade.page.pay',
      app_id: APP_ID,
      sign_type: 'RSA2',
      charset: 'utf-8',
      notify_url: 'http://localhost:8080/api/pay/notify/alipay',
      return_url: 'http://localhost:8080/manage/center/rechargeDetails',
      timestamp: beijingTime(t.clock.now()),
    });
    expect(JSON.parse(q.biz_content!)).toEqual({
      out_trade_no: o.orderNo,
      product_code: 'FAST_INSTANT_TRADE_PAY',
      total_amount: '3.00',
      subject: `Starter 1 GB ${o.orderNo}`,
      time_expire: beijingTime(new Date(o.expiresAt)),
    });
    const content = Object.keys(q)
      .filter((k) => k !== 'sign')
      .sort()
      .map((k) => `${k}=${q[k]}`)
      .join('&');
    expect(createVerify('RSA-SHA256').update(content, 'utf8').verify(merchant.publicKey, q.sign!, 'base64')).toBe(true);
  });

  it('a valid notification credits once and answers success; TRADE_FINISHED of the same trade changes nothing', async () => {
    const { token } = await signedIn(t);
    const orderNo = await buy(t, token, 1, 'alipay');
    const n = notification(orderNo);
    expect(await notify(signedBody(n))).toEqual({ status: 200, body: 'success' });
    expect(await order(orderNo)).toMatchObject({ status: 'paid', paid_by: 'webhook', provider_ref: n.trade_no });
    expect(await balance(t, token)).toBe(GB);
    expect(await notify(signedBody({ ...n, trade_status: 'TRADE_FINISHED', notify_id: 'later' }))).toEqual({ status: 200, body: 'success' });
    expect(await grants(orderNo)).toEqual([{ bytes: GB }]);
    expect(await events(orderNo)).toEqual([expect.objectContaining({ provider: 'alipay', event_id: n.trade_no, amount: '3.00', asset: 'CNY', result: 'credited', review_status: null })]);
    expect((await call(t.app, 'POST', '/api/order-check', { token, body: { orderNo } })).body.data.status).toBe('paid');
  });

  it('the same notification replayed 1,000 times, 100 at a time, credits once', async () => {
    const { token } = await signedIn(t);
    const orderNo = await buy(t, token, 1, 'alipay');
    const body = signedBody(notification(orderNo));
    const answers = await inBatches(1000, 100, () => notify(body));
    expect(answers.filter((a) => a.status === 200 && a.body === 'success')).toHaveLength(1000);
    expect(await grants(orderNo)).toEqual([{ bytes: GB }]);
    expect(await events(orderNo)).toHaveLength(1);
    expect(await balance(t, token)).toBe(GB);
  });

  it('forged, tampered or malformed notifications answer 400 and change nothing', async () => {
    const { token } = await signedIn(t);
    const orderNo = await buy(t, token, 1, 'alipay');
    const n = notification(orderNo);
    const tampered = new URLSearchParams(signedBody({ ...n, total_amount: '0.01' }));
    tampered.set('total_amount', '3.00');
    const noSignType = new URLSearchParams(signedBody(n));
    noSignType.delete('sign_type');
    const bodies = {
      forged: signedBody(n, forger.privateKey),
      tampered: tampered.toString(),
      'signed by the merchant key': signedBody(n, merchant.privateKey),
      unsigned: new URLSearchParams(n).toString(),
      'weaker sign_type': signedBody({ ...n, sign_type: 'RSA' }),
      'no sign_type': noSignType.toString(),
      'a parameter twice': `${signedBody(n)}&out_trade_no=${orderNo}`,
      empty: '',
    };
    for (const [what, body] of Object.entries(bodies)) expect(await notify(body), what).toEqual({ status: 400, body: 'rejected' });
    expect(await order(orderNo)).toMatchObject({ status: 'pending', paid_at: null });
    expect(await events(orderNo)).toEqual([]);
    expect(await grants(orderNo)).toEqual([]);
    // The genuine notification still works afterwards.
    expect(await notify(signedBody(n))).toEqual({ status: 200, body: 'success' });
    expect(await balance(t, token)).toBe(GB);
  });

  it('verified notifications that do not match the order go to review and credit nothing', async () => {
    const { token } = await signedIn(t);
    const orderNo = await buy(t, token, 1, 'alipay');
    const cases: [Record<string, string>, string][] = [
      [{ app_id: '2021000999999999' }, 'MERCHANT_MISMATCH'],
      [{ seller_id: '2088999999999999' }, 'MERCHANT_MISMATCH'],
      [{ total_amount: '2.99' }, 'AMOUNT_MISMATCH'],
      [{ total_amount: '30.00' }, 'AMOUNT_MISMATCH'],
      // A trade priced in another currency (cross-border): total_amount is then not yuan.
      [{ trans_currency: 'USD' }, 'CURRENCY_MISMATCH'],
    ];
    const tradeNos: string[] = [];
    for (const [change] of cases) {
      const n = notification(orderNo, change);
      tradeNos.push(n.trade_no!);
      expect(await notify(signedBody(n)), JSON.stringify(change)).toEqual({ status: 200, body: 'success' });
    }
    expect(await order(orderNo)).toMatchObject({ status: 'pending' });
    expect(await grants(orderNo)).toEqual([]);
    const review = await call(t.app, 'GET', '/api/manage/payment-review?pageSize=100', { token: admin });
    const mine = review.body.data.items.filter((r: { orderNo: string }) => r.orderNo === orderNo);
    expect(mine.map((r: { eventId: string; reason: string; status: string }) => [r.eventId, r.reason, r.status]).sort()).toEqual(
      cases.map(([, reason], i) => [tradeNos[i], reason, 'open']).sort(),
    );
  });

  it('a trade that is not paid is acknowledged and recorded nowhere', async () => {
    const { token } = await signedIn(t);
    const orderNo = await buy(t, token, 1, 'alipay');
    for (const trade_status of ['WAIT_BUYER_PAY', 'TRADE_CLOSED']) {
      expect(await notify(signedBody(notification(orderNo, { trade_status })))).toEqual({ status: 200, body: 'success' });
    }
    expect(await order(orderNo)).toMatchObject({ status: 'pending' });
    expect(await events(orderNo)).toEqual([]);
    expect(await balance(t, token)).toBe(0);
  });

  it('the poll asks alipay.trade.query at most every 10 s per order, trusts only signed answers, and pays once', async () => {
    const { token } = await signedIn(t);
    const orderNo = await buy(t, token, 1, 'alipay');
    const check = async () => (await call(t.app, 'POST', '/api/order-check', { token, body: { orderNo } })).body.data.status as string;
    expect(await check()).toBe('pending');
    expect(gw.hits.get(orderNo)).toBe(1);
    expect(await check()).toBe('pending');
    expect(gw.hits.get(orderNo)).toBe(1);

    const n = notification(orderNo);
    gw.paid.set(orderNo, { tradeNo: n.trade_no!, amount: '3.00' });
    t.clock.advance(QUERY_INTERVAL_MS - 1);
    expect(await check()).toBe('pending');
    expect(gw.hits.get(orderNo)).toBe(1);

    // An answer Alipay did not sign is not believed.
    gw.signWith = forger.privateKey;
    t.clock.advance(1);
    expect(await check()).toBe('pending');
    expect(gw.hits.get(orderNo)).toBe(2);

    gw.signWith = platform.privateKey;
    t.clock.advance(QUERY_INTERVAL_MS);
    expect(await check()).toBe('paid');
    expect(gw.hits.get(orderNo)).toBe(3);
    expect(gw.requestsSigned).toBe(true);
    expect(await order(orderNo)).toMatchObject({ paid_by: 'poll', provider_ref: n.trade_no });

    // The notification of the same trade arrives afterwards: acknowledged, nothing twice.
    expect(await notify(signedBody(n))).toEqual({ status: 200, body: 'success' });
    expect(await grants(orderNo)).toEqual([{ bytes: GB }]);
    expect(await events(orderNo)).toEqual([expect.objectContaining({ result: 'credited', review_status: null })]);
  });

  it('a shop priced in another currency cannot use alipay: the order is refused and cancelled', async () => {
    const { token } = await signedIn(t);
    await t.db.db.updateTable('packages').set({ currency: 'USD' }).where('id', '=', 4).execute();
    const res = await call(t.app, 'POST', '/api/buy/dynamic', { token, body: { goodsId: 4, payMethod: 'alipay' }, lang: 'zh' });
    await t.db.db.updateTable('packages').set({ currency: 'CNY' }).where('id', '=', 4).execute();
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ code: 'PAY_METHOD_CURRENCY', message: '此支付方式不支援以 USD 付款，請選擇其他支付方式。' });
    const orders = (await call(t.app, 'GET', '/api/record/dynamic-order', { token })).body.data.items;
    expect(orders).toEqual([expect.objectContaining({ status: 'cancelled', currency: 'USD' })]);
  });

  it('a payment for an order that expired goes to review, not to the customer', async () => {
    const { token } = await signedIn(t);
    const orderNo = await buy(t, token, 1, 'alipay');
    t.clock.advance(31 * MINUTE);
    const n = notification(orderNo);
    expect(await notify(signedBody(n))).toEqual({ status: 200, body: 'success' });
    expect(await balance(t, token)).toBe(0);
    expect((await order(orderNo)).status).not.toBe('paid');
    expect(await events(orderNo)).toEqual([expect.objectContaining({ event_id: n.trade_no, result: 'review', reason: 'ORDER_NOT_PENDING', review_status: 'open' })]);
  });

  it('a stale notification, delivered again days later, changes nothing', async () => {
    const { token } = await signedIn(t);
    const orderNo = await buy(t, token, 1, 'alipay');
    const n = notification(orderNo);
    expect(await notify(signedBody(n))).toEqual({ status: 200, body: 'success' });
    const paid = await order(orderNo);
    // Alipay signs notify_time but states no freshness window and retries for 25 h: age is not checked,
    // the trade number is. Two days on, the same trade (re-sent, or TRADE_FINISHED) is one payment.
    t.clock.advance(2 * 24 * 60 * MINUTE);
    for (const again of [n, { ...n, notify_time: '2026-11-25 10:00:06', notify_id: 'resent' }, { ...n, trade_status: 'TRADE_FINISHED', notify_id: 'finished' }]) {
      expect(await notify(signedBody(again))).toEqual({ status: 200, body: 'success' });
    }
    expect(await order(orderNo)).toEqual(paid);
    expect(await grants(orderNo)).toEqual([{ bytes: GB }]);
    expect(await events(orderNo)).toEqual([expect.objectContaining({ event_id: n.trade_no, result: 'credited' })]);
    expect(await balance(t, token)).toBe(GB);
  });

  it('logs rejected notifications with a reason and never a secret', async () => {
    const lines = logs.join('\n');
    expect(lines).toContain('payment notification rejected');
    expect(lines).toContain('"reason":"bad signature"');
    expect(lines).toContain('payment notification');
    // Any 64-character run of the private key would be a leak, not only the whole key.
    for (let i = 0; i + 64 <= merchantPrivateKey.length; i += 64) expect(lines).not.toContain(merchantPrivateKey.slice(i, i + 64));
  });
});

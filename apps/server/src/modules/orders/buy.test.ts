import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { call } from '../../../test/auth-flows';
import { balance, buy, configureMethod, seedCatalogue, signedIn } from '../../../test/commerce';
import { DIALECTS, type TestApp, createTestApp } from '../../../test/test-app';
import { MINUTE } from '../../lib/clock';
import { jobsPlugin } from '../../lib/jobs/jobs-plugin';
import { expireDueOrders, orderExpiryJob } from './expiry-job';

const GB = 1024 ** 3;

describe.each(DIALECTS)('buying traffic on %s', (dialect) => {
  let t: TestApp;
  let admin: string;
  beforeAll(async () => {
    t = await createTestApp(dialect);
    await seedCatalogue(t);
    admin = (await signedIn(t, 'admin')).token;
    await configureMethod(t, admin, 'manual', { instructionsEn: 'Transfer to IBAN X, reference {orderNo}', instructionsZhCn: '请转账并备注 {orderNo}', instructionsZh: '請轉帳並備註 {orderNo}' });
  });
  afterAll(() => t.close());

  it('offers only enabled, configured methods', async () => {
    const { token } = await signedIn(t);
    const res = await call(t.app, 'GET', '/api/pay/methods', { token });
    expect(res.body.data.methods).toEqual(['manual', 'sandbox']);
  });

  it('creates a pending order with the price snapshotted and a payment step', async () => {
    const { token, user } = await signedIn(t);
    const res = await call(t.app, 'POST', '/api/buy/dynamic', { token, body: { goodsId: 2, payMethod: 'sandbox' }, lang: 'zh-cn' });
    expect(res.status).toBe(200);
    const order = res.body.data.order;
    expect(order).toMatchObject({ kind: 'dynamic', status: 'pending', amount: 2500, currency: 'USD', payMethod: 'sandbox', paidAt: null });
    expect(order.items).toEqual([{ type: 'traffic', name: { en: 'Basic 10 GB', 'zh-cn': '基础 10 GB', zh: '基礎 10 GB' }, bytes: 10 * GB, validityDays: 30, quantity: 1, unitPrice: 2500 }]);
    expect(res.body.data.payment).toEqual({ type: 'redirect', url: `/api/pay/sandbox/${order.orderNo}?lang=zh-cn` });
    expect(new Date(order.expiresAt).getTime() - new Date(order.createdAt).getTime()).toBe(30 * MINUTE);

    // A later price change does not touch the order.
    await t.db.db.updateTable('packages').set({ price: 9999 }).where('id', '=', 2).execute();
    const check = await call(t.app, 'POST', '/api/order-check', { token, body: { orderNo: order.orderNo } });
    expect(check.body.data.amount).toBe(2500);
    await t.db.db.updateTable('packages').set({ price: 2500 }).where('id', '=', 2).execute();
    const row = await t.db.db.selectFrom('orders').selectAll().where('order_no', '=', order.orderNo).executeTakeFirstOrThrow();
    expect(row.user_id).toBe(user.id);
  });

  it('shows manual instructions in the customer language with the order number', async () => {
    const { token } = await signedIn(t);
    const res = await call(t.app, 'POST', '/api/buy/dynamic', { token, body: { goodsId: 1, payMethod: 'manual' }, lang: 'zh' });
    expect(res.body.data.payment).toEqual({ type: 'instructions', text: `請轉帳並備註 ${res.body.data.order.orderNo}` });
  });

  it('refuses unknown or disabled goods and methods, changing nothing', async () => {
    const { token, user } = await signedIn(t);
    await t.db.db.updateTable('packages').set({ enabled: 0 }).where('id', '=', 4).execute();
    const cases = [
      [{ goodsId: 4, payMethod: 'sandbox' }, 404, 'GOODS_UNKNOWN'],
      [{ goodsId: 999, payMethod: 'sandbox' }, 404, 'GOODS_UNKNOWN'],
      [{ goodsId: 1, payMethod: 'card' }, 400, 'PAY_METHOD_UNAVAILABLE'],
      [{ goodsId: 1, payMethod: 'paypal' }, 400, 'VALIDATION_FAILED'],
      [{ goodsId: 1, payMethod: 'sandbox', price: 1 }, 400, 'VALIDATION_FAILED'],
    ] as const;
    for (const [body, status, code] of cases) {
      const res = await call(t.app, 'POST', '/api/buy/dynamic', { token, body: { ...body }, lang: 'zh-cn' });
      expect(res.status, JSON.stringify(body)).toBe(status);
      expect(res.body.code).toBe(code);
      expect(res.body.message).toMatch(/[\u4e00-\u9fff]/);
    }
    await t.db.db.updateTable('packages').set({ enabled: 1 }).where('id', '=', 4).execute();
    const orders = await t.db.db.selectFrom('orders').select('id').where('user_id', '=', user.id).execute();
    expect(orders).toHaveLength(0);
  });

  it('pays through the sandbox page and credits the package once', async () => {
    const { token } = await signedIn(t);
    const orderNo = await buy(t, token, 2, 'sandbox');
    const page = await t.app.inject({ method: 'GET', url: `/api/pay/sandbox/${orderNo}?lang=zh` });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toContain('text/html');
    expect(page.body).toContain('沙盒支付');
    for (let i = 0; i < 3; i++) {
      const paid = await t.app.inject({ method: 'POST', url: `/api/pay/sandbox/${orderNo}/pay`, headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: '' });
      expect(paid.statusCode).toBe(200);
    }
    const check = await call(t.app, 'POST', '/api/order-check', { token, body: { orderNo } });
    expect(check.body.data).toMatchObject({ status: 'paid', payment: null });
    expect(await balance(t, token)).toBe(10 * GB);
    const traffic = await call(t.app, 'GET', '/api/traffic', { token });
    expect(traffic.body.data.grants).toEqual([expect.objectContaining({ orderNo, bytes: 10 * GB, usedBytes: 0 })]);
    const grantExpiry = new Date(traffic.body.data.grants[0].expiresAt).getTime();
    expect(grantExpiry - t.clock.now().getTime()).toBe(30 * 24 * 60 * MINUTE);
  });

  it('the sandbox fail button cancels the order and pays nothing', async () => {
    const { token } = await signedIn(t);
    const orderNo = await buy(t, token, 1, 'sandbox');
    await t.app.inject({ method: 'POST', url: `/api/pay/sandbox/${orderNo}/fail`, headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: '' });
    const pay = await t.app.inject({ method: 'POST', url: `/api/pay/sandbox/${orderNo}/pay`, headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: '' });
    expect(pay.statusCode).toBe(200);
    expect((await call(t.app, 'POST', '/api/order-check', { token, body: { orderNo } })).body.data.status).toBe('cancelled');
    expect(await balance(t, token)).toBe(0);
  });

  it('the sandbox fail button after the payment leaves the order paid with its grant', async () => {
    const { token } = await signedIn(t);
    const orderNo = await buy(t, token, 1, 'sandbox');
    const form = { headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: '' };
    expect((await t.app.inject({ method: 'POST', url: `/api/pay/sandbox/${orderNo}/pay`, ...form })).statusCode).toBe(200);
    const fail = await t.app.inject({ method: 'POST', url: `/api/pay/sandbox/${orderNo}/fail?lang=en`, ...form });
    expect(fail.statusCode).toBe(200);
    expect(fail.body).toContain('data-testid="sandbox-status">Paid<');
    const order = await t.db.db.selectFrom('orders').selectAll().where('order_no', '=', orderNo).executeTakeFirstOrThrow();
    expect(order).toMatchObject({ status: 'paid', paid_by: 'sandbox' });
    expect(order.paid_at).not.toBeNull();
    const grants = await t.db.db.selectFrom('traffic_grants').select(['bytes', 'used_bytes']).where('order_id', '=', order.id).execute();
    expect(grants).toEqual([{ bytes: GB, used_bytes: 0 }]);
    expect(await balance(t, token)).toBe(GB);
  });

  it('expires unpaid orders after 30 minutes; a late sandbox payment goes to review', async () => {
    const { token } = await signedIn(t);
    const orderNo = await buy(t, token, 1, 'sandbox');
    t.clock.advance(29 * MINUTE);
    expect((await call(t.app, 'POST', '/api/order-check', { token, body: { orderNo } })).body.data.status).toBe('pending');
    t.clock.advance(2 * MINUTE);
    expect((await call(t.app, 'POST', '/api/order-check', { token, body: { orderNo } })).body.data.status).toBe('expired');
    await t.app.inject({ method: 'POST', url: `/api/pay/sandbox/${orderNo}/pay`, headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: '' });
    expect(await balance(t, token)).toBe(0);
    const review = await call(t.app, 'GET', '/api/manage/payment-review', { token: admin });
    expect(review.body.data.items).toContainEqual(expect.objectContaining({ provider: 'sandbox', orderNo, reason: 'ORDER_NOT_PENDING', status: 'open' }));
  });

  it('the expiry job expires every due order once, also when two processes run it at once', async () => {
    const { token } = await signedIn(t);
    const a = await buy(t, token, 1, 'sandbox');
    const b = await buy(t, token, 2, 'manual');
    const rows = () => t.db.db.selectFrom('orders').select('status').where('order_no', 'in', [a, b]).execute();
    // Earlier tests of this shared app moved the clock past their own orders: expire those first.
    await expireDueOrders(t.db.db, t.clock);
    expect(await expireDueOrders(t.db.db, t.clock)).toBe(0);
    t.clock.advance(31 * MINUTE);
    const counts = await Promise.all([expireDueOrders(t.db.db, t.clock), expireDueOrders(t.db.db, t.clock)]);
    // Exactly the two due orders between both runners: neither row is expired twice, none is missed.
    expect(counts.reduce((x, y) => x + y, 0)).toBe(2);
    expect((await rows()).map((r) => r.status)).toEqual(['expired', 'expired']);
    expect(await expireDueOrders(t.db.db, t.clock)).toBe(0);
  });

  it('runs the expiry job every 30 s on its own, and stops it when the app closes', async () => {
    const { token } = await signedIn(t);
    await expireDueOrders(t.db.db, t.clock);
    const orderNo = await buy(t, token, 1, 'sandbox');
    const statusOf = async () => (await t.db.db.selectFrom('orders').select('status').where('order_no', '=', orderNo).executeTakeFirstOrThrow()).status;
    // Only the interval is faked: database drivers keep their real timers.
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    const app = Fastify({ logger: false });
    try {
      const every = vi.spyOn(globalThis, 'setInterval');
      await app.register(jobsPlugin, { db: t.db.db, clock: t.clock });
      app.jobs.add(orderExpiryJob(t.db.db, t.clock));
      await app.ready();
      expect(every.mock.calls.map(([, ms]) => ms)).toEqual([30_000]);
      t.clock.advance(31 * MINUTE);
      expect(await statusOf()).toBe('pending');
      await vi.advanceTimersByTimeAsync(30_000);
      await vi.waitFor(async () => expect(await statusOf()).toBe('expired'));
      await app.close();
      expect(vi.getTimerCount()).toBe(0);
    } finally {
      await app.close();
      vi.useRealTimers();
    }
  });

  it("another user's order is not found, and the record lists only one's own orders", async () => {
    const alice = await signedIn(t);
    const bob = await signedIn(t);
    const orderNo = await buy(t, alice.token, 1, 'sandbox');
    const peek = await call(t.app, 'POST', '/api/order-check', { token: bob.token, body: { orderNo } });
    expect(peek.status).toBe(404);
    expect(peek.body.code).toBe('NOT_FOUND');
    const page = await call(t.app, 'GET', '/api/pay/sandbox/NOPE12345678', {});
    expect(page.status).toBe(404);
    expect((await call(t.app, 'GET', '/api/record/dynamic-order', { token: bob.token })).body.data.total).toBe(0);
    expect((await call(t.app, 'GET', '/api/record/dynamic-order', { token: alice.token })).body.data.items.map((o: { orderNo: string }) => o.orderNo)).toEqual([orderNo]);
  });

  it('records filter by status and method and page newest first', async () => {
    const { token } = await signedIn(t);
    const made: string[] = [];
    for (let i = 0; i < 5; i++) {
      made.push(await buy(t, token, 1, i % 2 ? 'manual' : 'sandbox'));
      t.clock.advance(1000);
    }
    await t.app.inject({ method: 'POST', url: `/api/pay/sandbox/${made[0]}/pay`, headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: '' });
    const page1 = await call(t.app, 'GET', '/api/record/dynamic-order?page=1&pageSize=2', { token });
    expect(page1.body.data).toMatchObject({ total: 5, page: 1, pageSize: 2 });
    expect(page1.body.data.items.map((o: { orderNo: string }) => o.orderNo)).toEqual([made[4], made[3]]);
    const manual = await call(t.app, 'GET', '/api/record/dynamic-order?payMethod=manual', { token });
    expect(manual.body.data.items.map((o: { orderNo: string }) => o.orderNo)).toEqual([made[3], made[1]]);
    const paid = await call(t.app, 'GET', '/api/record/dynamic-order?status=paid', { token });
    expect(paid.body.data.items.map((o: { orderNo: string }) => o.orderNo)).toEqual([made[0]]);
    const today = t.clock.now().toISOString().slice(0, 10);
    expect((await call(t.app, 'GET', `/api/record/dynamic-order?from=${today}&to=${today}`, { token })).body.data.total).toBe(5);
    expect((await call(t.app, 'GET', '/api/record/dynamic-order?from=2001-01-01&to=2001-01-02', { token })).body.data.total).toBe(0);
    expect((await call(t.app, 'GET', '/api/record/dynamic-order?from=yesterday', { token })).status).toBe(400);
  });

  it('logs a purchase intention', async () => {
    const { token, user } = await signedIn(t);
    const res = await call(t.app, 'POST', '/api/logs/intention-purchase', { token, body: { kind: 'dynamic', goodsId: 2, payMethod: 'manual' } });
    expect(res.status).toBe(200);
    const rows = await t.db.db.selectFrom('intention_logs').selectAll().where('user_id', '=', user.id).execute();
    expect(rows).toEqual([expect.objectContaining({ kind: 'dynamic', goods_id: 2, pay_method: 'manual' })]);
    expect((await call(t.app, 'POST', '/api/logs/intention-purchase', { token, body: { kind: 'other' } })).status).toBe(400);
  });

  it('needs a session for buying and records', async () => {
    for (const [method, url] of [
      ['POST', '/api/buy/dynamic'],
      ['POST', '/api/order-check'],
      ['GET', '/api/record/dynamic-order'],
      ['GET', '/api/traffic'],
      ['GET', '/api/pay/methods'],
    ] as const) {
      expect((await call(t.app, method, url, method === 'POST' ? { body: {} } : {})).status).toBe(401);
    }
  });
});

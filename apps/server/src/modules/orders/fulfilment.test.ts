import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call } from '../../../test/auth-flows';
import { balance, buy, configureMethod, seedCatalogue, signedIn } from '../../../test/commerce';
import { text } from '../../../test/i18n';
import { recordFigure } from '../../../test/security-figures';
import { DIALECTS, type TestApp, createTestApp } from '../../../test/test-app';
import { MINUTE } from '../../lib/clock';
import { AuditLogRepository } from '../audit/audit-log-repository';
import type { ProviderEvent } from '../../payments/provider';
import { Fulfilment } from './fulfilment';

const GB = 1024 ** 3;
const form = { 'content-type': 'application/x-www-form-urlencoded' };

/** The money-concurrency figure: each race of both stores, recorded together as the file runs. */
const raceFigures: string[] = [];
const recordRace = (line: string) => {
  raceFigures.push(line);
  recordFigure({
    id: 'money-concurrency',
    threat: 'Concurrent verifies, webhooks and polls of one order racing to credit it twice',
    test: 'apps/server/src/modules/orders/fulfilment.test.ts › exactly-once fulfilment (50 concurrent order-verify calls; poll and webhook at once)',
    figure: raceFigures.join('; '),
  });
};

async function inBatches<T>(total: number, parallel: number, fn: () => Promise<T>): Promise<T[]> {
  const out: T[] = [];
  for (let done = 0; done < total; done += parallel) out.push(...(await Promise.all(Array.from({ length: Math.min(parallel, total - done) }, fn))));
  return out;
}

describe.each(DIALECTS)('exactly-once fulfilment on %s', (dialect) => {
  let t: TestApp;
  let admin: { token: string; user: { id: number } };
  let fulfilment: Fulfilment;
  beforeAll(async () => {
    t = await createTestApp(dialect);
    await seedCatalogue(t);
    admin = await signedIn(t, 'admin');
    await configureMethod(t, admin.token, 'manual', { instructionsEn: 'Pay by bank transfer' });
    fulfilment = new Fulfilment(t.db.db, t.clock, new AuditLogRepository(t.db.db, t.clock));
  });
  afterAll(() => t.close());

  const grants = (orderNo: string) =>
    t.db.db.selectFrom('traffic_grants').innerJoin('orders', 'orders.id', 'traffic_grants.order_id').select('traffic_grants.bytes').where('orders.order_no', '=', orderNo).execute();

  it('50 concurrent order-verify calls on one order: one credit, one audit row', async () => {
    const { token } = await signedIn(t);
    const orderNo = await buy(t, token, 2, 'manual');
    const answers = await Promise.all(Array.from({ length: 50 }, () => call(t.app, 'POST', '/api/manage/order-verify', { token: admin.token, body: { orderNo } })));
    expect(answers.map((a) => a.status)).toEqual(Array(50).fill(200));
    expect(answers.every((a) => a.body.data.status === 'paid' && a.body.data.paidBy === 'admin')).toBe(true);
    expect(answers.filter((a) => a.body.message === 'The order was marked paid and credited.')).toHaveLength(1);
    expect(await grants(orderNo)).toEqual([{ bytes: 10 * GB }]);
    expect(await balance(t, token)).toBe(10 * GB);
    const audit = await t.db.db.selectFrom('audit_logs').selectAll().where('target', '=', `order:${orderNo}`).execute();
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({ actor_id: admin.user.id, action: 'order.verify' });
    expect(JSON.parse(audit[0]!.before!)).toEqual({ status: 'pending' });
    recordRace(`${dialect}: 50 concurrent order-verify calls on one order, ${answers.filter((a) => a.status === 200).length} answered 200, ${(await grants(orderNo)).length} credit, ${audit.length} audit row`);
  });

  it('the same sandbox payment replayed 1,000 times, 100 at a time, credits once', async () => {
    const { token } = await signedIn(t);
    const orderNo = await buy(t, token, 1, 'sandbox');
    const codes = await inBatches(1000, 100, async () => (await t.app.inject({ method: 'POST', url: `/api/pay/sandbox/${orderNo}/pay`, headers: form, payload: '' })).statusCode);
    expect(new Set(codes)).toEqual(new Set([200]));
    expect(await grants(orderNo)).toEqual([{ bytes: GB }]);
    const events = await t.db.db.selectFrom('payment_events').selectAll().where('order_no', '=', orderNo).execute();
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ result: 'credited', review_status: null });
  });

  it('the sandbox page pays only the order\'s own amount: a price sent to its HTTP route is ignored or refused', async () => {
    const { token } = await signedIn(t);
    const orderNo = await buy(t, token, 2, 'sandbox');
    const url = `/api/pay/sandbox/${orderNo}/pay`;
    const json = await t.app.inject({ method: 'POST', url, headers: { 'content-type': 'application/json' }, payload: JSON.stringify({ amount: 1, currency: 'EUR' }) });
    expect(json.statusCode).toBe(400);
    expect(await grants(orderNo)).toEqual([]);
    const events = () => t.db.db.selectFrom('payment_events').selectAll().where('order_no', '=', orderNo).execute();
    expect(await events()).toEqual([]);

    const form = await t.app.inject({ method: 'POST', url: `${url}?amount=1&currency=EUR`, headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: 'amount=1&currency=EUR' });
    expect(form.statusCode).toBe(200);
    expect(await events()).toEqual([expect.objectContaining({ amount: '2500', asset: 'USD', result: 'credited' })]);
    expect(await grants(orderNo)).toEqual([{ bytes: 10 * GB }]);
  });

  it('verifying a manual order again and again credits once and writes one audit row', async () => {
    const { token } = await signedIn(t);
    const orderNo = await buy(t, token, 1, 'manual');
    const messages: string[] = [];
    for (let i = 0; i < 20; i++) {
      const res = await call(t.app, 'POST', '/api/manage/order-verify', { token: admin.token, body: { orderNo } });
      expect(res.status).toBe(200);
      expect(res.body.data).toMatchObject({ status: 'paid', paidBy: 'admin' });
      messages.push(res.body.message as string);
    }
    expect(messages[0]).toBe('The order was marked paid and credited.');
    expect(new Set(messages.slice(1)).size).toBe(1);
    expect(messages.slice(1)).not.toContain(messages[0]);
    expect(await grants(orderNo)).toEqual([{ bytes: GB }]);
    expect(await t.db.db.selectFrom('audit_logs').select('action').where('target', '=', `order:${orderNo}`).execute()).toEqual([{ action: 'order.verify' }]);
    expect(await balance(t, token)).toBe(GB);
  });

  it('a provider event paid by a poll and a webhook at once credits once', async () => {
    const { token } = await signedIn(t);
    const orderNo = await buy(t, token, 1, 'sandbox');
    const ev: ProviderEvent = { provider: 'sandbox', eventId: `tx-${orderNo}`, orderNo, amount: 300, currency: 'USD', display: '3.00', by: 'webhook' };
    const results = await Promise.all([
      ...Array.from({ length: 20 }, () => fulfilment.recordEvent(ev)),
      ...Array.from({ length: 20 }, () => fulfilment.markPaid(orderNo, { by: 'poll' })),
    ]);
    expect(results.filter((r) => ('credited' in r ? r.credited : r.result === 'credited'))).toHaveLength(1);
    expect(await grants(orderNo)).toEqual([{ bytes: GB }]);
    recordRace(`${dialect}: 20 webhook events and 20 polls of one order at once, ${(await grants(orderNo)).length} credit`);
  });

  it('events that do not match their order go to review and credit nothing', async () => {
    const { token } = await signedIn(t);
    const orderNo = await buy(t, token, 1, 'sandbox');
    const base: ProviderEvent = { provider: 'sandbox', eventId: '', orderNo, amount: 300, currency: 'USD', display: '3.00', by: 'webhook' };
    const cases: [Partial<ProviderEvent>, string][] = [
      [{ amount: 299 }, 'AMOUNT_MISMATCH'],
      [{ amount: 3000 }, 'AMOUNT_MISMATCH'],
      [{ currency: 'EUR' }, 'CURRENCY_MISMATCH'],
      [{ provider: 'card' }, 'METHOD_MISMATCH'],
      [{ orderNo: 'D00000000000000000000' }, 'ORDER_UNKNOWN'],
      [{ orderNo: null }, 'ORDER_UNKNOWN'],
    ];
    for (const [i, [change, reason]] of cases.entries()) {
      const outcome = await fulfilment.recordEvent({ ...base, eventId: `bad-${orderNo}-${i}`, ...change });
      expect(outcome, reason).toMatchObject({ result: 'review', reason });
    }
    expect(await grants(orderNo)).toEqual([]);
    expect((await call(t.app, 'POST', '/api/order-check', { token, body: { orderNo } })).body.data.status).toBe('pending');

    // The matching payment still works, and a second, different payment of the paid order is flagged.
    expect(await fulfilment.recordEvent({ ...base, eventId: `good-${orderNo}` })).toMatchObject({ result: 'credited' });
    expect(await fulfilment.recordEvent({ ...base, eventId: `again-${orderNo}` })).toMatchObject({ result: 'review', reason: 'ALREADY_PAID' });
    expect(await grants(orderNo)).toEqual([{ bytes: GB }]);

    const review = await call(t.app, 'GET', '/api/manage/payment-review?pageSize=100', { token: admin.token });
    const mine = review.body.data.items.filter((r: { eventId: string }) => r.eventId.includes(orderNo));
    expect(mine.map((r: { reason: string }) => r.reason).sort()).toEqual(['ALREADY_PAID', 'AMOUNT_MISMATCH', 'AMOUNT_MISMATCH', 'CURRENCY_MISMATCH', 'METHOD_MISMATCH', 'ORDER_UNKNOWN', 'ORDER_UNKNOWN']);

    const one = mine[0];
    const resolved = await call(t.app, 'POST', '/api/manage/payment-review/resolve', { token: admin.token, body: { id: one.id } });
    expect(resolved.body.data.status).toBe('resolved');
    expect((await call(t.app, 'POST', '/api/manage/payment-review/resolve', { token: admin.token, body: { id: one.id } })).status).toBe(404);
    expect(await t.db.db.selectFrom('audit_logs').select('action').where('target', '=', `payment-event:${one.id}`).execute()).toEqual([{ action: 'payment-review.resolve' }]);
  });

  it('an admin may verify an order that expired while the payment was checked, never a cancelled one', async () => {
    const { token } = await signedIn(t);
    const late = await buy(t, token, 1, 'manual');
    const gone = await buy(t, token, 1, 'sandbox');
    await t.app.inject({ method: 'POST', url: `/api/pay/sandbox/${gone}/fail`, headers: form, payload: '' });
    t.clock.advance(45 * MINUTE);
    const ok = await call(t.app, 'POST', '/api/manage/order-verify', { token: admin.token, body: { orderNo: late } });
    expect(ok.body.data.status).toBe('paid');
    const no = await call(t.app, 'POST', '/api/manage/order-verify', { token: admin.token, body: { orderNo: gone }, lang: 'zh-cn' });
    expect(no.status).toBe(409);
    expect(no.body).toMatchObject({ code: 'ORDER_NOT_PENDING' });
    // The status in the caller's words, not the code.
    expect(no.body.message).toBe(text('zh-cn', 'errors.ORDER_NOT_PENDING', { status: 'cancelled' }));
    expect(no.body.message).toContain('已取消');
    expect((await call(t.app, 'POST', '/api/manage/order-verify', { token: admin.token, body: { orderNo: 'D404' } })).status).toBe(404);
    expect((await call(t.app, 'POST', '/api/manage/order-verify', { token, body: { orderNo: late } })).status).toBe(403);
    expect(await balance(t, token)).toBe(GB);
  });

  it('an admin recharge credits traffic as a manual-recharge order with a note and an audit row', async () => {
    const { token, user } = await signedIn(t);
    const res = await call(t.app, 'POST', '/api/manage/recharge', { token: admin.token, body: { userId: user.id, bytes: 5 * GB, validityDays: 7, note: 'Compensation for outage #12' } });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ kind: 'manual-recharge', status: 'paid', paidBy: 'admin', note: 'Compensation for outage #12', userId: user.id, amount: 0, currency: 'USD' });
    expect(await balance(t, token)).toBe(5 * GB);
    const traffic = await call(t.app, 'GET', '/api/traffic', { token });
    expect(new Date(traffic.body.data.grants[0].expiresAt).getTime() - t.clock.now().getTime()).toBe(7 * 24 * 60 * MINUTE);
    const audit = await t.db.db.selectFrom('audit_logs').selectAll().where('target', '=', `user:${user.id}`).execute();
    expect(audit).toEqual([expect.objectContaining({ action: 'user.recharge', actor_id: admin.user.id })]);
    expect(JSON.parse(audit[0]!.before!)).toEqual({ balanceBytes: 0 });
    expect(JSON.parse(audit[0]!.after!)).toMatchObject({ bytes: 5 * GB, note: 'Compensation for outage #12', balanceBytes: 5 * GB });
    // The customer sees it among their records.
    expect((await call(t.app, 'GET', '/api/record/dynamic-order', { token })).body.data.items[0]).toMatchObject({ kind: 'manual-recharge', status: 'paid' });

    for (const body of [{ userId: user.id, bytes: 0, note: 'x' }, { userId: user.id, bytes: GB, note: '' }, { userId: user.id, bytes: GB, note: 'x', extra: true }]) {
      expect((await call(t.app, 'POST', '/api/manage/recharge', { token: admin.token, body })).status).toBe(400);
    }
    const unknown = await call(t.app, 'POST', '/api/manage/recharge', { token: admin.token, body: { userId: 999_999, bytes: GB, note: 'x' } });
    expect(unknown.status).toBe(404);
    expect(unknown.body.code).toBe('USER_UNKNOWN');
    expect((await call(t.app, 'POST', '/api/manage/recharge', { token, body: { userId: user.id, bytes: GB, note: 'self' } })).status).toBe(403);
    expect(await balance(t, token)).toBe(5 * GB);

    // A second recharge records the balance it found: the first grant, less what was used of it.
    await t.db.db.updateTable('traffic_grants').set({ used_bytes: GB }).where('user_id', '=', user.id).execute();
    expect((await call(t.app, 'POST', '/api/manage/recharge', { token: admin.token, body: { userId: user.id, bytes: 2 * GB, note: 'Top-up' } })).status).toBe(200);
    const second = await t.db.db.selectFrom('audit_logs').selectAll().where('target', '=', `user:${user.id}`).orderBy('id', 'desc').executeTakeFirstOrThrow();
    expect(JSON.parse(second.before!)).toEqual({ balanceBytes: 4 * GB });
    expect(JSON.parse(second.after!)).toMatchObject({ bytes: 2 * GB, balanceBytes: 6 * GB });
  });

  it('the order desk filters by status, kind, method, user and order number', async () => {
    const { token, user } = await signedIn(t);
    const a = await buy(t, token, 1, 'manual');
    const b = await buy(t, token, 2, 'sandbox');
    await t.app.inject({ method: 'POST', url: `/api/pay/sandbox/${b}/pay`, headers: form, payload: '' });
    const list = async (q: string) => (await call(t.app, 'GET', `/api/manage/order?${q}`, { token: admin.token })).body.data;
    const mine = await list(`userId=${user.id}`);
    expect(mine.items.map((o: { orderNo: string }) => o.orderNo)).toEqual([b, a]);
    expect(mine.items[0]).toMatchObject({ userEmail: user.email, paidBy: 'sandbox', status: 'paid' });
    expect((await list(`userId=${user.id}&status=pending`)).items.map((o: { orderNo: string }) => o.orderNo)).toEqual([a]);
    expect((await list(`email=${encodeURIComponent(user.email.slice(0, 12))}&payMethod=sandbox`)).items.map((o: { orderNo: string }) => o.orderNo)).toContain(b);
    expect((await list(`orderNo=${a.toLowerCase()}`)).items.map((o: { orderNo: string }) => o.orderNo)).toEqual([a]);
    expect((await list('kind=manual-recharge&userId=' + user.id)).total).toBe(0);
    expect((await call(t.app, 'GET', '/api/manage/order?status=lost', { token: admin.token })).status).toBe(400);
    expect((await call(t.app, 'GET', '/api/manage/order', { token })).status).toBe(403);
  });
});

describe.each(DIALECTS)('manual recharge in a CNY store on %s', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(dialect, { CURRENCY: 'CNY' });
  });
  afterAll(() => t.close());

  it('records the recharge order in the configured currency, not USD', async () => {
    const admin = await signedIn(t, 'admin');
    const { token, user } = await signedIn(t);
    const res = await call(t.app, 'POST', '/api/manage/recharge', { token: admin.token, body: { userId: user.id, bytes: GB, note: 'CNY shop' } });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ kind: 'manual-recharge', amount: 0, currency: 'CNY' });
    const row = await t.db.db.selectFrom('orders').select('currency').where('order_no', '=', res.body.data.orderNo).executeTakeFirstOrThrow();
    expect(row.currency).toBe('CNY');
    expect((await call(t.app, 'GET', '/api/record/dynamic-order', { token })).body.data.items[0]).toMatchObject({ kind: 'manual-recharge', currency: 'CNY' });
  });
});

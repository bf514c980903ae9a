import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call } from '../../test/auth-flows';
import { balance, buy, configureMethod, seedCatalogue, signedIn } from '../../test/commerce';
import { type FakeReceipt, type FakeTransfer, startFakeTron } from '../../test/fake-tron';
import { DIALECTS, type TestApp, createTestApp } from '../../test/test-app';
import { loadConfig } from '../config';
import { MINUTE } from '../lib/clock';
import { AuditLogRepository } from '../modules/audit/audit-log-repository';
import { seedDemoCatalogue } from '../modules/catalogue/demo-seed';
import { expireDueOrders } from '../modules/orders/expiry-job';
import { Fulfilment } from '../modules/orders/fulfilment';
import { MAX_OFFSET, USDT_CONTRACT, formatUsdt, isApiBase, isTronAddress, pickOffset, tronAddressToHex } from './usdt-trc20';

const GB = 1024 ** 3;
const OURS = 'TXYZopYRdj2D9XRtbG411XZZ3kM5VkAeBf';
const STRANGER = 'TJmmqjb1DK9TTZbQXzRQ2AuA94z4gKAPFh';
const FAKE_USDT = 'TXLAQ63Xg1NAzckPwKHvzw7CSEmLMEqcdj';

async function inBatches<T>(total: number, parallel: number, fn: () => Promise<T>): Promise<T[]> {
  const out: T[] = [];
  for (let done = 0; done < total; done += parallel) out.push(...(await Promise.all(Array.from({ length: Math.min(parallel, total - done) }, fn))));
  return out;
}

/** A USDT transfer from a stranger to us, as TronGrid lists it. */
function transferShape(amount: string | number): FakeTransfer {
  return {
    transaction_id: randomBytes(32).toString('hex'),
    token_info: { address: USDT_CONTRACT, decimals: 6, symbol: 'USDT', name: 'Tether USD' },
    block_timestamp: Date.now(),
    from: STRANGER,
    to: OURS,
    type: 'Transfer',
    value: String(amount),
  };
}

describe('USDT-TRC20 amounts and addresses', () => {
  it('accepts TRON addresses only with a valid checksum', () => {
    expect(tronAddressToHex(USDT_CONTRACT)).toBe('41a614f803b6fd780986a42c78ec9c7f77e6ded13c');
    expect(isTronAddress(OURS)).toBe(true);
    // One character off: right format, wrong checksum — money sent there would be lost.
    expect(isTronAddress('TXYZopYRdj2D9XRtbG411XZZ3kM5VkAeBg')).toBe(false);
    expect(isTronAddress('0x8f0a7b2c7f1b9b3e8d1c6f9a7b2c7f1b9b3e8d1c')).toBe(false);
    expect(isTronAddress(undefined)).toBe(false);
    expect([isApiBase(''), isApiBase('http://127.0.0.1:9'), isApiBase('ftp://x'), isApiBase('not a url')]).toEqual([true, true, false, false]);
  });

  it('writes micro-USDT with six decimals', () => {
    expect([formatUsdt(10_000_137), formatUsdt(1), formatUsdt(25_000_000)]).toEqual(['10.000137', '0.000001', '25.000000']);
  });

  it('gives a recently used amount again only when no other is free', () => {
    const base = 3_000_000;
    const allBut = (free: number) => new Set(Array.from({ length: MAX_OFFSET }, (_, i) => base + i + 1).filter((a) => a !== base + free));
    for (const free of [1, 4711, MAX_OFFSET]) expect(pickOffset(allBut(free), base)).toBe(free);
    const offset = pickOffset(new Set(Array.from({ length: MAX_OFFSET }, (_, i) => base + i + 1)), base);
    expect(offset >= 1 && offset <= MAX_OFFSET).toBe(true);
  });
});

describe('USDT_POLL_SECONDS', () => {
  it('is a number of seconds from 1 to 3600, 15 by default', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'resi-usdt-'));
    try {
      const env = { NODE_ENV: 'test', DATA_DIR: dir, APP_SECRET: 'a'.repeat(32) };
      expect(loadConfig(env).USDT_POLL_SECONDS).toBe(15);
      expect(loadConfig({ ...env, USDT_POLL_SECONDS: '60' }).USDT_POLL_SECONDS).toBe(60);
      for (const bad of ['0', '1.5', 'often', '3601']) expect(() => loadConfig({ ...env, USDT_POLL_SECONDS: bad })).toThrow(/USDT_POLL_SECONDS/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe.each(DIALECTS)('USDT-TRC20 on %s', (dialect) => {
  let t: TestApp;
  let tron: Awaited<ReturnType<typeof startFakeTron>>;
  let admin: string;
  beforeAll(async () => {
    tron = await startFakeTron();
    // Polled by the tests only (pollOnce): a scheduled poll in between would ask the node too, and the
    // counts of what was asked would depend on the machine's speed. The schedule has its own test below.
    t = await createTestApp(dialect, { USDT_POLL_SECONDS: '3600' });
    await seedCatalogue(t);
    admin = (await signedIn(t, 'admin')).token;
    await configureMethod(t, admin, 'usdt-trc20', { address: OURS, apiBase: tron.url }, { apiKey: 'tg-key-123456789' });
  });
  afterAll(async () => {
    await t.close();
    await tron.close();
  });

  /** A transfer as TronGrid lists it, final and successful unless told otherwise (null: not solidified yet). */
  function transfer(amount: string | number, over: Partial<FakeTransfer> = {}, receipt: FakeReceipt | null = { result: 'SUCCESS' }): FakeTransfer {
    const tx: FakeTransfer = { ...transferShape(amount), block_timestamp: t.clock.now().getTime(), ...over };
    tron.transfers.push(tx);
    if (receipt) tron.receipts.set(tx.transaction_id, receipt);
    return tx;
  }
  const payAmountOf = async (orderNo: string) => Number((await t.db.db.selectFrom('orders').select('pay_amount').where('order_no', '=', orderNo).executeTakeFirstOrThrow()).pay_amount);
  const statusOf = async (orderNo: string) => (await t.db.db.selectFrom('orders').select('status').where('order_no', '=', orderNo).executeTakeFirstOrThrow()).status;
  const eventsOf = (txid: string) => t.db.db.selectFrom('payment_events').select(['result', 'reason']).where('event_id', '=', txid).execute();
  /** An amount one micro-USDT off `amount` that no USDT order has had (so it can only be "unknown"). */
  async function nearMiss(amount: number): Promise<number> {
    const used = new Set((await t.db.db.selectFrom('orders').select('pay_amount').where('pay_method', '=', 'usdt-trc20').execute()).map((r) => Number(r.pay_amount)));
    return [amount - 1, amount + 1, amount - 2, amount + 2].find((a) => !used.has(a))!;
  }
  async function openReviews() {
    const res = await call(t.app, 'GET', '/api/manage/payment-review?pageSize=100', { token: admin });
    expect(res.status).toBe(200);
    return res.body.data.items as { eventId: string; reason: string; orderNo: string | null; provider: string; amount: string; asset: string; status: string }[];
  }

  it('asks for an exact amount just above the price, to our address', async () => {
    const { token } = await signedIn(t);
    const res = await call(t.app, 'POST', '/api/buy/dynamic', { token, body: { goodsId: 2, payMethod: 'usdt-trc20' } });
    expect(res.status).toBe(200);
    const payment = res.body.data.payment;
    expect(payment).toMatchObject({ type: 'address', network: 'TRC20', asset: 'USDT', address: OURS });
    expect(payment.amount).toMatch(/^25\.00\d{4}$/);
    expect(payment.amount).not.toBe('25.000000');
    expect(formatUsdt(await payAmountOf(res.body.data.order.orderNo))).toBe(payment.amount);
    expect(res.body.data.order.payment).toEqual(payment);
  });

  it('never gives two open orders the same amount, even when created at once', async () => {
    // Ten customers with five open orders each: one customer may hold no more (open-order-cap.ts).
    const tokens = await Promise.all(Array.from({ length: 10 }, async () => (await signedIn(t)).token));
    const orders = await Promise.all(Array.from({ length: 50 }, (_, i) => buy(t, tokens[i % 10]!, 1, 'usdt-trc20')));
    const amounts = await Promise.all(orders.map(payAmountOf));
    expect(new Set(amounts).size).toBe(50);
    expect(amounts.every((a) => a > 3_000_000 && a < 3_010_000)).toBe(true);
  });

  it('an exact, final transfer pays its order once, however often it is seen (1,000 polls, 100 at a time)', async () => {
    const { token } = await signedIn(t);
    const orderNo = await buy(t, token, 2, 'usdt-trc20');
    const tx = transfer(await payAmountOf(orderNo));
    const runs = await inBatches(1000, 100, () => t.app.usdtWatcher.pollOnce());
    expect(runs.reduce((n, r) => n + r.credited, 0)).toBe(1);
    expect(await balance(t, token)).toBe(10 * GB);
    const order = await call(t.app, 'POST', '/api/order-check', { token, body: { orderNo } });
    expect(order.body.data.status).toBe('paid');
    const row = await t.db.db.selectFrom('orders').select(['paid_by', 'provider_ref']).where('order_no', '=', orderNo).executeTakeFirstOrThrow();
    expect(row).toEqual({ paid_by: 'watcher', provider_ref: tx.transaction_id });
    expect(await eventsOf(tx.transaction_id)).toEqual([{ result: 'credited', reason: null }]);
    const grants = await t.db.db.selectFrom('traffic_grants').innerJoin('orders', 'orders.id', 'traffic_grants.order_id').select('traffic_grants.id').where('orders.order_no', '=', orderNo).execute();
    expect(grants).toHaveLength(1);
    const list = tron.requests.find((r) => r.url.startsWith(`/v1/accounts/${OURS}/transactions/trc20?`))!;
    expect(list.url).toContain(`contract_address=${USDT_CONTRACT}`);
    expect(list.url).toContain('only_confirmed=true');
    expect(list.url).toContain('only_to=true');
    expect(tron.requests.every((r) => r.apiKey === 'tg-key-123456789')).toBe(true);
  });

  it('the same event handed to fulfilment 1,000 times, 100 at a time, credits once', async () => {
    const { token } = await signedIn(t);
    const orderNo = await buy(t, token, 1, 'usdt-trc20');
    const amount = await payAmountOf(orderNo);
    const fulfilment = new Fulfilment(t.db.db, t.clock, new AuditLogRepository(t.db.db, t.clock));
    const eventId = randomBytes(32).toString('hex');
    const outcomes = await inBatches(1000, 100, () =>
      fulfilment.recordEvent({ provider: 'usdt-trc20', eventId, orderNo, amount, currency: 'USDT', display: formatUsdt(amount), by: 'watcher' }),
    );
    expect(outcomes.filter((o) => o.result === 'credited')).toHaveLength(1);
    expect(outcomes.filter((o) => o.result === 'duplicate')).toHaveLength(999);
    expect(await balance(t, token)).toBe(GB);
    expect(await statusOf(orderNo)).toBe('paid');
  });

  it('ignores other tokens, other recipients, failed, unfinished and tampered transactions', async () => {
    const { token } = await signedIn(t);
    const orderNo = await buy(t, token, 1, 'usdt-trc20');
    const amount = await payAmountOf(orderNo);
    const ignored = [
      transfer(amount, { token_info: { address: FAKE_USDT, decimals: 6, symbol: 'USDT', name: 'Not Tether' } }),
      transfer(amount, { to: STRANGER }),
      transfer(amount, { type: 'Approval' }),
      transfer(amount, {}, { result: 'REVERT' }),
      transfer(amount, {}, { result: 'OUT_OF_ENERGY' }),
      transfer(amount, {}, null),
      // The list and the solidity node's receipt disagree: the receipt's word wins, and it is not a payment to us.
      transfer(amount, {}, { result: 'SUCCESS', value: String(amount - 3_000_000) }),
      transfer(amount, {}, { result: 'SUCCESS', to: STRANGER }),
      transfer(amount, {}, { result: 'SUCCESS', contract: FAKE_USDT }),
    ];
    const asked = () => tron.requests.filter((r) => r.url === '/walletsolidity/gettransactioninfobyid').length;
    const askedBefore = asked();
    const res = await t.app.usdtWatcher.pollOnce();
    expect(res.credited).toBe(0);
    expect(await balance(t, token)).toBe(0);
    expect((await call(t.app, 'POST', '/api/order-check', { token, body: { orderNo } })).body.data.status).toBe('pending');
    for (const tx of ignored) expect(await eventsOf(tx.transaction_id)).toEqual([]);
    // The solidity node was asked about the six USDT transfers to us, not about the others.
    expect(asked() - askedBefore).toBe(6);
  });

  it('a transfer one micro-USDT off goes to review, not to the customer', async () => {
    const { token } = await signedIn(t);
    const orderNo = await buy(t, token, 1, 'usdt-trc20');
    const off = transfer(await nearMiss(await payAmountOf(orderNo)));
    const res = await t.app.usdtWatcher.pollOnce();
    expect(res).toMatchObject({ credited: 0, review: 1 });
    expect(await balance(t, token)).toBe(0);
    expect(await statusOf(orderNo)).toBe('pending');
    expect((await openReviews()).find((r) => r.eventId === off.transaction_id)).toMatchObject({
      provider: 'usdt-trc20',
      reason: 'ORDER_UNKNOWN',
      orderNo: null,
      amount: formatUsdt(Number(off.value)),
      asset: 'USDT',
      status: 'open',
    });
  });

  it('a transfer sent before its amount was given to an order does not pay that order', async () => {
    const { token } = await signedIn(t);
    const orderNo = await buy(t, token, 3, 'usdt-trc20');
    const early = transfer(await payAmountOf(orderNo), { block_timestamp: t.clock.now().getTime() - 5 * MINUTE });
    await t.app.usdtWatcher.pollOnce();
    expect(await balance(t, token)).toBe(0);
    expect(await statusOf(orderNo)).toBe('pending');
    expect((await openReviews()).find((r) => r.eventId === early.transaction_id)).toMatchObject({ reason: 'PAID_BEFORE_ORDER', orderNo });
  });

  it('a second transfer of a paid order’s amount goes to review', async () => {
    const { token } = await signedIn(t);
    const orderNo = await buy(t, token, 1, 'usdt-trc20');
    const amount = await payAmountOf(orderNo);
    transfer(amount);
    await t.app.usdtWatcher.pollOnce();
    expect(await balance(t, token)).toBe(GB);
    const again = transfer(amount);
    await t.app.usdtWatcher.pollOnce();
    expect(await balance(t, token)).toBe(GB);
    expect((await openReviews()).find((r) => r.eventId === again.transaction_id)).toMatchObject({ reason: 'ALREADY_PAID', orderNo });
  });

  it('a transfer after the order expired goes to review naming the order, and the order stays expired', async () => {
    const { token } = await signedIn(t);
    const orderNo = await buy(t, token, 1, 'usdt-trc20');
    const amount = await payAmountOf(orderNo);
    t.clock.advance(31 * MINUTE);
    // Just this order: earlier tests of this shared app leave other orders due at other times.
    const { id } = await t.db.db.selectFrom('orders').select('id').where('order_no', '=', orderNo).executeTakeFirstOrThrow();
    expect(await expireDueOrders(t.db.db, t.clock, id)).toBe(1);
    expect(await statusOf(orderNo)).toBe('expired');
    const late = transfer(amount);
    const res = await t.app.usdtWatcher.pollOnce();
    expect(res.credited).toBe(0);
    expect(await balance(t, token)).toBe(0);
    expect(await statusOf(orderNo)).toBe('expired');
    expect((await openReviews()).find((r) => r.eventId === late.transaction_id)).toMatchObject({ reason: 'ORDER_NOT_PENDING', orderNo, amount: formatUsdt(amount) });
  });

  it('a transfer to an order that timed out but was not yet marked expired goes to review too', async () => {
    const { token } = await signedIn(t);
    const orderNo = await buy(t, token, 1, 'usdt-trc20');
    const amount = await payAmountOf(orderNo);
    t.clock.advance(31 * MINUTE);
    const late = transfer(amount);
    await t.app.usdtWatcher.pollOnce();
    expect(await balance(t, token)).toBe(0);
    expect((await openReviews()).find((r) => r.eventId === late.transaction_id)).toMatchObject({ reason: 'ORDER_NOT_PENDING', orderNo });
    await expireDueOrders(t.db.db, t.clock);
  });

  it('an expired order releases its amount for a new order', async () => {
    const { token } = await signedIn(t);
    const first = await buy(t, token, 1, 'usdt-trc20');
    const second = await buy(t, token, 1, 'usdt-trc20');
    const amount = await payAmountOf(first);
    const setAmount = () => t.db.db.updateTable('orders').set({ pay_amount: amount }).where('order_no', '=', second).execute();
    // While the first order is open, its amount cannot be given to another.
    await expect(setAmount()).rejects.toThrow();
    t.clock.advance(31 * MINUTE);
    await expireDueOrders(t.db.db, t.clock);
    await t.db.db.updateTable('orders').set({ status: 'pending', expires_at: new Date(t.clock.now().getTime() + 30 * MINUTE).toISOString() }).where('order_no', '=', second).execute();
    await expect(setAmount()).resolves.toBeDefined();
    // And a payment of that amount now pays the open order, not the expired one.
    transfer(amount);
    await t.app.usdtWatcher.pollOnce();
    expect([await statusOf(first), await statusOf(second)]).toEqual(['expired', 'paid']);
    expect(await balance(t, token)).toBe(GB);
  });

  it('a transfer the solidity node does not know yet is credited once it does, even after the list moved on', async () => {
    const { token } = await signedIn(t);
    const slow = await buy(t, token, 1, 'usdt-trc20');
    const tx = transfer(await payAmountOf(slow), {}, null);
    expect((await t.app.usdtWatcher.pollOnce()).credited).toBe(0);
    expect(await statusOf(slow)).toBe('pending');
    // A newer payment 15 minutes later moves the list's lower bound past the first transfer.
    t.clock.advance(15 * MINUTE);
    const other = await buy(t, token, 1, 'usdt-trc20');
    transfer(await payAmountOf(other));
    expect((await t.app.usdtWatcher.pollOnce()).credited).toBe(1);
    tron.receipts.set(tx.transaction_id, { result: 'SUCCESS' });
    expect((await t.app.usdtWatcher.pollOnce()).credited).toBe(1);
    const lastList = tron.requests.filter((r) => r.url.includes('/transactions/trc20?')).at(-1)!;
    expect(Number(new URL(lastList.url, 'http://x').searchParams.get('min_timestamp'))).toBeGreaterThan(tx.block_timestamp);
    expect([await statusOf(slow), await statusOf(other)]).toEqual(['paid', 'paid']);
    expect(await balance(t, token)).toBe(2 * GB);
  });

  it('reads every page: a payment behind 200 other transfers is found', async () => {
    const { token } = await signedIn(t);
    const orderNo = await buy(t, token, 1, 'usdt-trc20');
    const start = t.clock.now().getTime() - 3 * MINUTE;
    for (let i = 0; i < 210; i++) transfer(1_000_000 + i, { block_timestamp: start + i }, { result: 'REVERT' });
    transfer(await payAmountOf(orderNo));
    expect((await t.app.usdtWatcher.pollOnce()).credited).toBe(1);
    expect(await balance(t, token)).toBe(GB);
    expect(tron.requests.some((r) => r.url.includes('fingerprint='))).toBe(true);
  });

  it('survives the solidity node being down and credits when it is back', async () => {
    const { token } = await signedIn(t);
    const orderNo = await buy(t, token, 1, 'usdt-trc20');
    transfer(await payAmountOf(orderNo));
    tron.setReceiptsDown(true);
    expect((await t.app.usdtWatcher.pollOnce()).credited).toBe(0);
    expect(await statusOf(orderNo)).toBe('pending');
    tron.setReceiptsDown(false);
    expect((await t.app.usdtWatcher.pollOnce()).credited).toBe(1);
    expect(await balance(t, token)).toBe(GB);
  });

  it('survives the TRON API being down and catches up afterwards', async () => {
    const { token } = await signedIn(t);
    const orderNo = await buy(t, token, 1, 'usdt-trc20');
    transfer(await payAmountOf(orderNo));
    const eventsBefore = await t.db.db.selectFrom('payment_events').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
    tron.setDown(true);
    await expect(t.app.usdtWatcher.pollOnce()).rejects.toThrow(/503/);
    expect(await balance(t, token)).toBe(0);
    const eventsDuring = await t.db.db.selectFrom('payment_events').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
    expect(Number(eventsDuring.n)).toBe(Number(eventsBefore.n));
    tron.setDown(false);
    await t.app.usdtWatcher.pollOnce();
    expect(await balance(t, token)).toBe(GB);
  });

  it('needs a valid address and API base to be enabled, and refuses non-dollar stores', async () => {
    for (const settings of [{ address: 'not-an-address' }, { address: 'TXYZopYRdj2D9XRtbG411XZZ3kM5VkAeBg' }, { address: OURS, apiBase: 'ftp://tron.example' }]) {
      const res = await call(t.app, 'POST', '/api/manage/pay-config', { token: admin, body: { method: 'usdt-trc20', enabled: true, settings } });
      expect(res.body.code).toBe('PAY_METHOD_INCOMPLETE');
    }
    const eur = await createTestApp(dialect, { CURRENCY: 'EUR' });
    try {
      await seedDemoCatalogue(eur.db.db, eur.clock, 'EUR');
      const a = (await signedIn(eur, 'admin')).token;
      await configureMethod(eur, a, 'usdt-trc20', { address: OURS, apiBase: tron.url });
      const c = await signedIn(eur);
      const buyEur = await call(eur.app, 'POST', '/api/buy/dynamic', { token: c.token, body: { goodsId: 1, payMethod: 'usdt-trc20' } });
      expect(buyEur.status).toBe(400);
      expect(buyEur.body.code).toBe('PAY_METHOD_CURRENCY');
      // The refused order holds no amount.
      expect(await eur.db.db.selectFrom('orders').select('status').execute()).toEqual([{ status: 'cancelled' }]);
    } finally {
      await eur.close();
    }
  });

  it('polls on its own every USDT_POLL_SECONDS while the app runs', async () => {
    const own = await startFakeTron();
    const timed = await createTestApp(dialect, { USDT_POLL_SECONDS: '1' });
    try {
      await seedDemoCatalogue(timed.db.db, timed.clock, 'USD');
      await configureMethod(timed, (await signedIn(timed, 'admin')).token, 'usdt-trc20', { address: OURS, apiBase: own.url });
      const { token } = await signedIn(timed);
      const orderNo = await buy(timed, token, 1, 'usdt-trc20');
      const row = await timed.db.db.selectFrom('orders').select('pay_amount').where('order_no', '=', orderNo).executeTakeFirstOrThrow();
      const tx = { ...transferShape(Number(row.pay_amount)), block_timestamp: timed.clock.now().getTime() };
      own.transfers.push(tx);
      own.receipts.set(tx.transaction_id, { result: 'SUCCESS' });
      await expect.poll(() => balance(timed, token), { timeout: 5000, interval: 200 }).toBe(GB);
    } finally {
      await timed.close();
      await own.close();
    }
  });

  it('does not poll while the method is switched off', async () => {
    const { token } = await signedIn(t);
    const orderNo = await buy(t, token, 1, 'usdt-trc20');
    transfer(await payAmountOf(orderNo));
    const res = await call(t.app, 'POST', '/api/manage/pay-config', { token: admin, body: { method: 'usdt-trc20', enabled: false } });
    expect(res.status).toBe(200);
    const before = tron.requests.length;
    expect(await t.app.usdtWatcher.pollOnce()).toEqual({ seen: 0, credited: 0, review: 0 });
    expect(tron.requests.length).toBe(before);
    await configureMethod(t, admin, 'usdt-trc20', { address: OURS, apiBase: tron.url });
    expect((await t.app.usdtWatcher.pollOnce()).credited).toBe(1);
  });
});

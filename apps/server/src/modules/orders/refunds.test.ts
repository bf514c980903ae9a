import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call } from '../../../test/auth-flows';
import { balance, buy, seedCatalogue, signedIn } from '../../../test/commerce';
import { addressPool, importInventory } from '../../../test/static-kit';
import { DIALECTS, type TestApp, createTestApp } from '../../../test/test-app';
import { UsageRepository } from '../../gateway/store/usage-repository';
import { DAY, iso } from '../../lib/clock';
import { type CutoffEvent, LocalCutoffBus } from '../../lib/cutoff-bus';

const GB = 1024 ** 3;
const MB = 1024 ** 2;
const form = { headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: '' };

describe.each(DIALECTS)('refunds on %s', (dialect) => {
  let t: TestApp;
  const bus = new LocalCutoffBus();
  const events: CutoffEvent[] = [];
  let admin: { token: string; user: { id: number } };
  let regionId: number;
  let businessId: number;
  let flushSeq = 0;
  beforeAll(async () => {
    // A buyer here takes a region's whole stock; what one may hold unpaid is static-unpaid-holds.test.ts.
    t = await createTestApp(dialect, { STATIC_UNPAID_MAX_SHARE: '100' }, { cutoffs: bus });
    bus.subscribe((e) => void events.push(e));
    await seedCatalogue(t);
    admin = await signedIn(t, 'admin');
    regionId = (await call(t.app, 'GET', '/api/static-region')).body.data.items[0].id;
    businessId = (await call(t.app, 'GET', '/api/business')).body.data.items[0].id;
  });
  afterAll(() => t.close());

  const pay = (orderNo: string) => t.app.inject({ method: 'POST', url: `/api/pay/sandbox/${orderNo}/pay`, ...form });
  const refund = (orderNo: string, o: { token?: string; note?: string; lang?: string } = {}) =>
    call(t.app, 'POST', '/api/manage/order-refund', { token: o.token ?? admin.token, lang: o.lang, body: { orderNo, note: o.note ?? 'Refunded in the sandbox dashboard' } });
  const preview = (orderNo: string) => call(t.app, 'GET', `/api/manage/order-refund?orderNo=${orderNo}`, { token: admin.token });
  /** A customer who bought package `goodsId` with the sandbox and paid it. */
  async function paidTraffic(goodsId = 1) {
    const c = await signedIn(t);
    const orderNo = await buy(t, c.token, goodsId, 'sandbox');
    expect((await pay(orderNo)).statusCode).toBe(200);
    return { ...c, orderNo };
  }
  /** Bills `bytes` to the customer through the gateway's metering path (a proxy account of theirs). */
  async function use(c: { token: string; user: { id: number } }, bytes: number) {
    const acct = await call(t.app, 'POST', '/api/proxy/dynamic', { token: c.token, body: { username: `rf${c.user.id}x${++flushSeq}`, password: 'Secret123' } });
    expect(acct.status).toBe(200);
    const hour = `${iso(t.clock.now()).slice(0, 13)}:00:00.000Z`;
    await new UsageRepository(t.db.db, t.clock).flush('refund-test', ++flushSeq, [{ accountId: acct.body.data.id, userId: c.user.id, hour, country: 'US', bytesUp: bytes / 2, bytesDown: bytes / 2 }]);
  }
  const grantOf = (orderNo: string) =>
    t.db.db
      .selectFrom('traffic_grants')
      .innerJoin('orders', 'orders.id', 'traffic_grants.order_id')
      .select(['traffic_grants.bytes', 'traffic_grants.used_bytes'])
      .where('orders.order_no', '=', orderNo)
      .executeTakeFirstOrThrow();
  const auditOf = (orderNo: string) => t.db.db.selectFrom('audit_logs').selectAll().where('target', '=', `order:${orderNo}`).where('action', '=', 'order.refund').execute();

  it('takes back exactly the unused rest of the traffic grant, writes an audit row, and the customer sees the order refunded', async () => {
    const c = await paidTraffic(1);
    // A second, older package stays the customer's: only this order's grant is touched.
    const other = await paidTraffic(1);
    await use(c, 300 * MB);
    expect(await balance(t, c.token)).toBe(GB - 300 * MB);

    const seen = await preview(c.orderNo);
    expect(seen.status).toBe(200);
    expect(seen.body.data).toMatchObject({ order: { orderNo: c.orderNo, status: 'paid', userEmail: c.user.email }, takeBack: { trafficBytes: GB - 300 * MB, staticIps: [], renewals: [] } });

    const before = events.length;
    const res = await refund(c.orderNo);
    expect(res.status).toBe(200);
    expect(res.body.message).toBe('The order was refunded and what it granted was taken back.');
    expect(res.body.data).toMatchObject({ order: { orderNo: c.orderNo, status: 'refunded' }, takeBack: { trafficBytes: GB - 300 * MB } });
    expect(await balance(t, c.token)).toBe(0);
    expect(await grantOf(c.orderNo)).toEqual({ bytes: 300 * MB, used_bytes: 300 * MB });
    expect(await grantOf(other.orderNo)).toEqual({ bytes: GB, used_bytes: 0 });
    expect(events.slice(before)).toEqual([{ userId: c.user.id }]);

    const [row, ...more] = await auditOf(c.orderNo);
    expect(more).toEqual([]);
    expect(row).toMatchObject({ actor_id: admin.user.id, action: 'order.refund' });
    expect(JSON.parse(row!.before!)).toEqual({ status: 'paid', balanceBytes: GB - 300 * MB });
    expect(JSON.parse(row!.after!)).toEqual({ status: 'refunded', note: 'Refunded in the sandbox dashboard', takeBack: { trafficBytes: GB - 300 * MB, staticIps: [], renewals: [], commission: null }, balanceBytes: 0 });

    const mine = await call(t.app, 'GET', '/api/record/dynamic-order', { token: c.token });
    expect(mine.body.data.items).toEqual([expect.objectContaining({ orderNo: c.orderNo, status: 'refunded' })]);
    const check = await call(t.app, 'POST', '/api/order-check', { token: c.token, body: { orderNo: c.orderNo } });
    expect(check.body.data.status).toBe('refunded');
  });

  it('a grant used up has nothing left to take back', async () => {
    const c = await paidTraffic(1);
    await use(c, GB);
    expect(await balance(t, c.token)).toBe(0);
    const res = await refund(c.orderNo);
    expect(res.status).toBe(200);
    expect(res.body.data.takeBack.trafficBytes).toBe(0);
    expect(await grantOf(c.orderNo)).toEqual({ bytes: GB, used_bytes: GB });
  });

  it('20 refunds of one order at once: one succeeds, the rest are ORDER_ALREADY_REFUNDED, nothing is taken twice', async () => {
    const c = await paidTraffic(2);
    await use(c, 2 * GB);
    const answers = await Promise.all(Array.from({ length: 20 }, () => refund(c.orderNo)));
    expect(answers.filter((a) => a.status === 200)).toHaveLength(1);
    const refused = answers.filter((a) => a.status !== 200);
    expect(refused).toHaveLength(19);
    for (const a of refused) expect(a).toMatchObject({ status: 409, body: { code: 'ORDER_ALREADY_REFUNDED', message: 'This order was already refunded.' } });
    expect(await grantOf(c.orderNo)).toEqual({ bytes: 2 * GB, used_bytes: 2 * GB });
    expect(await balance(t, c.token)).toBe(0);
    expect(await auditOf(c.orderNo)).toHaveLength(1);
    // And later, one at a time, in the admin's language.
    expect(await refund(c.orderNo, { lang: 'zh' })).toMatchObject({ status: 409, body: { code: 'ORDER_ALREADY_REFUNDED', message: '這筆訂單已經退款。' } });
  });

  it('refuses orders that are not paid (409) and unknown ones (404), changing nothing', async () => {
    const c = await signedIn(t);
    const pending = await buy(t, c.token, 1, 'sandbox');
    const res = await refund(pending, { lang: 'zh-cn' });
    expect(res).toMatchObject({ status: 409, body: { code: 'ORDER_NOT_PAID', message: '只有已支付的订单可以退款，该订单未曾支付。' } });
    expect((await preview(pending)).body.code).toBe('ORDER_NOT_PAID');
    expect((await call(t.app, 'POST', '/api/order-check', { token: c.token, body: { orderNo: pending } })).body.data.status).toBe('pending');
    expect(await auditOf(pending)).toEqual([]);

    expect(await refund('D20990101000000123456')).toMatchObject({ status: 404, body: { code: 'NOT_FOUND' } });
    expect((await preview('D20990101000000123456')).status).toBe(404);
    // The note says how the money went back: it is required.
    const paid = await paidTraffic(1);
    expect((await refund(paid.orderNo, { note: '  ' })).status).toBe(400);
    expect(await balance(t, paid.token)).toBe(GB);
  });

  it("dates a customer's first payment by the order paid first; a later payment or a refund does not move it", async () => {
    const c = await signedIn(t);
    const firstPaid = async () => (await t.db.db.selectFrom('users').select('first_paid_at').where('id', '=', c.user.id).executeTakeFirstOrThrow()).first_paid_at;
    const paidAt = async (orderNo: string) => (await t.db.db.selectFrom('orders').select('paid_at').where('order_no', '=', orderNo).executeTakeFirstOrThrow()).paid_at;
    const first = await buy(t, c.token, 1, 'sandbox');
    expect(await firstPaid()).toBeNull();
    expect((await pay(first)).statusCode).toBe(200);
    expect(await firstPaid()).toBe(await paidAt(first));
    t.clock.advance(DAY);
    const second = await buy(t, c.token, 1, 'sandbox');
    expect((await pay(second)).statusCode).toBe(200);
    expect((await refund(first)).status).toBe(200);
    expect(await firstPaid()).toBe(await paidAt(first));
    const today = iso(t.clock.now()).slice(0, 10);
    const day = (await paidAt(first))!.slice(0, 10);
    const report = (await call(t.app, 'GET', `/api/manage/statistics?from=${day}&to=${today}`, { token: admin.token })).body.data;
    expect(report.rows.find((r: { period: string }) => r.period === day).newPayingUsers).toBeGreaterThanOrEqual(1);
    expect(report.rows.find((r: { period: string }) => r.period === today).newPayingUsers).toBe(0);
  });

  it('is for admins only: a customer gets 403, nobody signed in 401', async () => {
    const c = await paidTraffic(1);
    expect((await refund(c.orderNo, { token: c.token })).body.code).toBe('FORBIDDEN');
    expect((await refund(c.orderNo, { token: c.token })).status).toBe(403);
    const anonymous = await t.app.inject({ method: 'POST', url: '/api/manage/order-refund', payload: { orderNo: c.orderNo, note: 'x' } });
    expect(anonymous.statusCode).toBe(401);
    expect((await call(t.app, 'GET', `/api/manage/order-refund?orderNo=${c.orderNo}`, { token: c.token })).status).toBe(403);
    expect(await balance(t, c.token)).toBe(GB);
  });

  describe('static IPs', () => {
    const addresses = addressPool('192.0.2');
    const mine = async (token: string) => (await call(t.app, 'GET', '/api/proxy/static', { token })).body.data.items as { id: number; ip: string; status: string; expiresAt: string }[];
    const rowOf = async (ip: string) => (await call(t.app, 'GET', `/api/manage/static-inventory?ip=${ip}`, { token: admin.token })).body.data.items[0] as { id: number; status: string; cooldownUntil: string | null };

    it('a purchase refunded releases its IPs: rows to cooldown, logins cut, the customer sees them released', async () => {
      const ips = await importInventory(t, admin.token, { regionId, ips: addresses(2) });
      const c = await signedIn(t);
      const order = await call(t.app, 'POST', '/api/buy/static', { token: c.token, body: { regionId, businessId, quantity: 2, days: 30, payMethod: 'sandbox' } });
      const orderNo = order.body.data.order.orderNo as string;
      await pay(orderNo);
      const held = await mine(c.token);
      expect(held.map((a) => a.status)).toEqual(['active', 'active']);

      expect((await preview(orderNo)).body.data.takeBack).toEqual({ trafficBytes: 0, staticIps: held.map((a) => ({ id: a.id, ip: a.ip })).sort((a, b) => a.id - b.id), renewals: [], commission: null });
      const before = events.length;
      const res = await refund(orderNo);
      expect(res.status).toBe(200);
      expect(res.body.data.takeBack.staticIps.map((s: { ip: string }) => s.ip).sort()).toEqual([...ips].sort());
      expect((await mine(c.token)).map((a) => a.status)).toEqual(['released', 'released']);
      for (const ip of ips) {
        const row = await rowOf(ip);
        expect(row.status).toBe('cooldown');
        expect(new Date(row.cooldownUntil!).getTime()).toBe(t.clock.now().getTime() + t.config.STATIC_COOLDOWN_DAYS * DAY);
      }
      const accounts = await t.db.db.selectFrom('static_allocations').select(['account_id']).where('user_id', '=', c.user.id).orderBy('id').execute();
      expect(events.slice(before)).toEqual(accounts.map((a) => ({ userId: c.user.id, accountId: a.account_id })));
      const history = (await call(t.app, 'GET', `/api/manage/static-inventory/${(await rowOf(ips[0]!)).id}/history`, { token: admin.token })).body.data.items as { event: string; reason: string | null }[];
      expect(history.map((e) => [e.event, e.reason])).toContainEqual(['released', 'refunded']);
      expect(JSON.parse((await auditOf(orderNo))[0]!.after!).takeBack.staticIps).toHaveLength(2);
    });

    it('a renewal refunded takes its days back off the expiry', async () => {
      await importInventory(t, admin.token, { regionId, ips: addresses(1) });
      const c = await signedIn(t);
      const order = await call(t.app, 'POST', '/api/buy/static', { token: c.token, body: { regionId, businessId, quantity: 1, days: 30, payMethod: 'sandbox' } });
      await pay(order.body.data.order.orderNo);
      const [a] = await mine(c.token);
      const renew = await call(t.app, 'POST', '/api/buy/static-renew', { token: c.token, body: { staticProxyIds: [a!.id], days: 30, payMethod: 'sandbox' } });
      expect(renew.status).toBe(200);
      const renewNo = renew.body.data.order.orderNo as string;
      await pay(renewNo);
      const renewed = (await mine(c.token))[0]!;
      expect(new Date(renewed.expiresAt).getTime()).toBe(new Date(a!.expiresAt).getTime() + 30 * DAY);

      const res = await refund(renewNo);
      expect(res.status).toBe(200);
      expect(res.body.data.takeBack.renewals).toEqual([{ id: a!.id, ip: a!.ip, days: 30, expiresAt: a!.expiresAt }]);
      expect((await mine(c.token))[0]).toMatchObject({ id: a!.id, status: 'active', expiresAt: a!.expiresAt });
      expect((await rowOf(a!.ip)).status).toBe('allocated');
    });
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call } from '../../../test/auth-flows';
import { buy, seedCatalogue, signedIn } from '../../../test/commerce';
import { DIALECTS, type TestApp, createTestApp } from '../../../test/test-app';
import { text } from '../../../test/i18n';
import { addressPool, importInventory } from '../../../test/static-kit';
import { DAY } from '../../lib/clock';

const form = { headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: '' };

describe.each(DIALECTS)('buying static IPs on %s', (dialect) => {
  let t: TestApp;
  let admin: string;
  let regionId: number;
  let businessId: number;
  beforeAll(async () => {
    // Stock, not what one customer may hold unpaid (static-unpaid-holds.test.ts): one buyer may take it all.
    t = await createTestApp(dialect, { STATIC_UNPAID_MAX_SHARE: '100' });
    await seedCatalogue(t);
    admin = (await signedIn(t, 'admin')).token;
    regionId = (await call(t.app, 'GET', '/api/static-region')).body.data.items[0].id;
    businessId = (await call(t.app, 'GET', '/api/business')).body.data.items[0].id;
  });
  afterAll(() => t.close());

  const addresses = addressPool('203.0.113');
  const stockUp = (n: number) => importInventory(t, admin, { regionId, ips: addresses(n) });
  const available = async () => {
    const regions = (await call(t.app, 'GET', '/api/static-region')).body.data.items as { id: number; stock: { businessId: number; available: number }[] }[];
    return regions.find((r) => r.id === regionId)!.stock.find((s) => s.businessId === businessId)?.available ?? 0;
  };
  const buyStatic = (token: string, quantity: number, days = 30) => call(t.app, 'POST', '/api/buy/static', { token, body: { regionId, businessId, quantity, days, payMethod: 'sandbox' } });
  const pay = (orderNo: string) => t.app.inject({ method: 'POST', url: `/api/pay/sandbox/${orderNo}/pay`, ...form });
  const countOrders = async () => Number((await t.db.db.selectFrom('orders').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n);

  it('reserves stock with the order, allocates it once when paid, and lists the IPs with their own logins', async () => {
    const ips = await stockUp(3);
    const before = await available();
    const { token } = await signedIn(t);
    const res = await buyStatic(token, 2);
    expect(res.status).toBe(200);
    const order = res.body.data.order;
    expect(order).toMatchObject({ kind: 'static', status: 'pending', amount: 1000, currency: 'USD' });
    expect(order.items).toEqual([expect.objectContaining({ type: 'static', regionId, businessId, days: 30, quantity: 2, unitPrice: 500 })]);
    expect(await available()).toBe(before - 2);

    // Paid three times over: allocated once.
    for (let i = 0; i < 3; i++) expect((await pay(order.orderNo)).statusCode).toBe(200);
    const mine = await call(t.app, 'GET', '/api/proxy/static', { token });
    expect(mine.body.data.total).toBe(2);
    const items = mine.body.data.items as { ip: string; username: string; password: string; status: string; expiresAt: string; startsAt: string; replacementsLeft: number }[];
    expect(items.map((i) => i.ip).sort()).toEqual(ips.slice(0, 2));
    for (const i of items) {
      expect(i).toMatchObject({ status: 'active', replacementsLeft: 1, country: 'US', httpPort: t.config.GATEWAY_HTTP_PORT, socksPort: t.config.GATEWAY_SOCKS_PORT });
      expect(i).toMatchObject({ regionName: { en: 'Los Angeles', 'zh-cn': '洛杉矶', zh: '洛杉磯' }, businessName: { en: 'E-commerce', 'zh-cn': '电商', zh: '電商' } });
      expect(i.username).toMatch(/^s[a-z0-9]{9}$/);
      expect(i.password).toMatch(/^[A-Za-z0-9]{16}$/);
      expect(new Date(i.expiresAt).getTime() - new Date(i.startsAt).getTime()).toBe(30 * DAY);
    }
    // The logins are not rotating sub-accounts: the customer's own list does not show them.
    expect((await call(t.app, 'GET', '/api/proxy/dynamic', { token })).body.data.items).toEqual([]);
    // Nor can the rotating routes edit or delete them.
    const logins = await t.db.db.selectFrom('static_allocations').select('account_id').where('order_id', 'is not', null).execute();
    for (const { account_id } of logins) {
      expect((await call(t.app, 'PUT', `/api/proxy/dynamic/${account_id}`, { token, body: { remark: 'mine' } })).status).toBe(404);
      expect((await call(t.app, 'DELETE', `/api/proxy/dynamic/${account_id}`, { token })).status).toBe(404);
    }
    const board = (await call(t.app, 'GET', '/api/manage/static-inventory/board', { token: admin })).body.data.items;
    expect(board.find((c: { businessId: number | null }) => c.businessId === null).counts).toMatchObject({ allocated: 2, reserved: 0 });
    const records = await call(t.app, 'GET', '/api/record/static-order', { token });
    expect(records.body.data.items.map((o: { orderNo: string; status: string }) => [o.orderNo, o.status])).toEqual([[order.orderNo, 'paid']]);
    expect((await call(t.app, 'GET', '/api/record/dynamic-order', { token })).body.data.total).toBe(0);
  });

  it('refuses more than the stock with OUT_OF_STOCK and makes no order; a cancelled order gives its IPs back', async () => {
    const { token } = await signedIn(t);
    const free = await available();
    const orders = await countOrders();
    const over = await buyStatic(token, free + 1);
    expect([over.status, over.body.code]).toEqual([409, 'OUT_OF_STOCK']);
    expect(await countOrders()).toBe(orders);

    const held = await buyStatic(token, free);
    expect(held.status).toBe(200);
    expect(await available()).toBe(0);
    expect((await buyStatic((await signedIn(t)).token, 1)).body.code).toBe('OUT_OF_STOCK');
    await t.app.inject({ method: 'POST', url: `/api/pay/sandbox/${held.body.data.order.orderNo}/fail`, ...form });
    expect(await available()).toBe(free);
  });

  it('an expired order gives its IPs back; paid by hand afterwards, it takes free ones or is refused', async () => {
    await stockUp(1);
    const { token } = await signedIn(t);
    const free = await available();
    const order = (await buyStatic(token, free)).body.data.order;
    expect(await available()).toBe(0);
    t.clock.advance(31 * 60 * 1000);
    expect(await available()).toBe(free);
    // Someone else takes them; the admin's late verification finds no stock and changes nothing.
    const other = await signedIn(t);
    const taken = (await buyStatic(other.token, free)).body.data.order;
    const verify = await call(t.app, 'POST', '/api/manage/order-verify', { token: admin, body: { orderNo: order.orderNo } });
    expect([verify.status, verify.body.code]).toEqual([409, 'OUT_OF_STOCK']);
    expect((await call(t.app, 'POST', '/api/order-check', { token, body: { orderNo: order.orderNo } })).body.data.status).toBe('expired');
    await t.app.inject({ method: 'POST', url: `/api/pay/sandbox/${taken.orderNo}/fail`, ...form });
    // With stock back, the same verification allocates.
    expect((await call(t.app, 'POST', '/api/manage/order-verify', { token: admin, body: { orderNo: order.orderNo } })).status).toBe(200);
    expect((await call(t.app, 'GET', '/api/proxy/static', { token })).body.data.total).toBe(free);
  });

  it('refuses unknown goods, bad quantities and days with localized errors', async () => {
    const { token } = await signedIn(t);
    expect((await buyStatic(token, 1, 45)).body.code).toBe('GOODS_UNKNOWN');
    const zero = await call(t.app, 'POST', '/api/buy/static', { token, lang: 'zh-cn', body: { regionId, businessId, quantity: 0, days: 30, payMethod: 'sandbox' } });
    expect([zero.status, zero.body.message]).toEqual([400, text('zh-cn', 'errors.VALIDATION_FAILED', { detail: text('zh-cn', 'validation.staticQuantity') })]);
    const twice = await call(t.app, 'POST', '/api/buy/static-renew', { token, lang: 'en', body: { staticProxyIds: [1, 1], days: 30, payMethod: 'sandbox' } });
    expect([twice.status, twice.body.message]).toEqual([400, text('en', 'errors.VALIDATION_FAILED', { detail: text('en', 'validation.staticProxyIds') })]);
    expect((await call(t.app, 'POST', '/api/buy/static', { token, body: { regionId: 99999, businessId, quantity: 1, days: 30, payMethod: 'sandbox' } })).status).toBe(404);
    expect((await call(t.app, 'POST', '/api/buy/static', { body: { regionId, businessId, quantity: 1, days: 30, payMethod: 'sandbox' } })).status).toBe(401);
  });

  it('renews once per paid order, from the later of expiry and payment; another customer\'s IP is not found', async () => {
    await stockUp(2);
    const { token } = await signedIn(t);
    const order = (await buyStatic(token, 2)).body.data.order;
    await pay(order.orderNo);
    const [a, b] = (await call(t.app, 'GET', '/api/proxy/static', { token })).body.data.items as { id: number; expiresAt: string }[];
    const renew = await call(t.app, 'POST', '/api/buy/static-renew', { token, body: { staticProxyIds: [a!.id], days: 90, payMethod: 'sandbox' } });
    expect(renew.status).toBe(200);
    expect(renew.body.data.order).toMatchObject({ kind: 'static-renew', amount: 1350 });
    for (let i = 0; i < 3; i++) await pay(renew.body.data.order.orderNo);
    const after = (await call(t.app, 'GET', '/api/proxy/static', { token })).body.data.items as { id: number; expiresAt: string }[];
    expect(new Date(after.find((x) => x.id === a!.id)!.expiresAt).getTime() - new Date(a!.expiresAt).getTime()).toBe(90 * DAY);
    expect(after.find((x) => x.id === b!.id)!.expiresAt).toBe(b!.expiresAt);

    const stranger = await signedIn(t);
    const theirs = await call(t.app, 'POST', '/api/buy/static-renew', { token: stranger.token, body: { staticProxyIds: [a!.id], days: 30, payMethod: 'sandbox' } });
    expect([theirs.status, theirs.body.code]).toEqual([404, 'NOT_FOUND']);
    expect((await call(t.app, 'GET', '/api/proxy/static', { token: stranger.token })).body.data.items).toEqual([]);
  });

  it("Recharge Details lists every order of the caller with its kind; a customer cancels an unpaid order of theirs, which gives its IPs back", async () => {
    await stockUp(2);
    const { token } = await signedIn(t);
    const goodsId = (await call(t.app, 'GET', '/api/goods')).body.data.packages[0].id as number;
    const traffic = await buy(t, token, goodsId, 'sandbox');
    await pay(traffic);
    const bought = (await buyStatic(token, 1)).body.data.order.orderNo as string;
    await pay(bought);
    const [ip] = (await call(t.app, 'GET', '/api/proxy/static', { token })).body.data.items as { id: number }[];
    const renewal = (await call(t.app, 'POST', '/api/buy/static-renew', { token, body: { staticProxyIds: [ip!.id], days: 30, payMethod: 'sandbox' } })).body.data.order.orderNo as string;
    await pay(renewal);
    const unpaid = (await buyStatic(token, 1)).body.data.order.orderNo as string;
    const stranger = await signedIn(t);
    await buy(t, stranger.token, goodsId, 'sandbox');

    const all = await call(t.app, 'GET', '/api/record/order', { token });
    expect(all.body.data.items.map((o: { orderNo: string; kind: string; status: string }) => [o.orderNo, o.kind, o.status])).toEqual([
      [unpaid, 'static', 'pending'],
      [renewal, 'static-renew', 'paid'],
      [bought, 'static', 'paid'],
      [traffic, 'dynamic', 'paid'],
    ]);
    expect(all.body.data.total).toBe(4);
    const renewals = await call(t.app, 'GET', '/api/record/order?kind=static-renew', { token });
    expect(renewals.body.data.items.map((o: { orderNo: string }) => o.orderNo)).toEqual([renewal]);
    const badKind = await call(t.app, 'GET', '/api/record/order?kind=gold', { token, lang: 'zh' });
    expect(badKind.status).toBe(400);

    // Cancelling: the IP it held is free again; a second cancel, a paid order and a stranger's order are refused.
    const free = await available();
    const cancel = (orderNo: string, as = token, lang: 'en' | 'zh-cn' | 'zh' = 'en') => call(t.app, 'POST', '/api/order-cancel', { token: as, lang, body: { orderNo } });
    expect((await cancel(unpaid, stranger.token)).status).toBe(404);
    const done = await cancel(unpaid);
    expect([done.status, done.body.data.status]).toEqual([200, 'cancelled']);
    expect(await available()).toBe(free + 1);
    const again = await cancel(unpaid, token, 'zh-cn');
    expect([again.status, again.body.code, again.body.message]).toEqual([409, 'ORDER_NOT_CANCELLABLE', text('zh-cn', 'errors.ORDER_NOT_CANCELLABLE', { status: 'cancelled' })]);
    expect(again.body.message).toContain('已取消');
    expect((await cancel(traffic)).body.code).toBe('ORDER_NOT_CANCELLABLE');
    expect((await cancel('D20990101000000000001')).status).toBe(404);
    expect((await call(t.app, 'POST', '/api/order-cancel', { token, body: {} })).status).toBe(400);
    expect((await call(t.app, 'POST', '/api/order-cancel', { body: { orderNo: unpaid } })).status).toBe(401);
    // A payment that still comes for it is not credited: it waits for the admins' review.
    expect((await pay(unpaid)).statusCode).not.toBe(500);
    expect((await call(t.app, 'POST', '/api/order-check', { token, body: { orderNo: unpaid } })).body.data.status).toBe('cancelled');
  });

  it('admins grant IPs and days at no charge, audited', async () => {
    await stockUp(1);
    const customer = await signedIn(t);
    const grant = await call(t.app, 'POST', '/api/manage/static-recharge', { token: admin, body: { userId: customer.user.id, regionId, businessId, quantity: 1, days: 7, note: 'trial' } });
    expect(grant.status).toBe(200);
    expect(grant.body.data).toMatchObject({ kind: 'static', status: 'paid', amount: 0, note: 'trial' });
    const [ip] = (await call(t.app, 'GET', '/api/proxy/static', { token: customer.token })).body.data.items as { id: number; expiresAt: string; startsAt: string }[];
    expect(new Date(ip!.expiresAt).getTime() - new Date(ip!.startsAt).getTime()).toBe(7 * DAY);
    // The admin finds the IP on its inventory row, with its holder.
    const rows = (await call(t.app, 'GET', '/api/manage/static-inventory?status=allocated&pageSize=100', { token: admin })).body.data.items as { holder: { allocationId: number; userId: number } | null }[];
    expect(rows.find((r) => r.holder?.allocationId === ip!.id)?.holder).toEqual({ allocationId: ip!.id, userId: customer.user.id, expiresAt: ip!.expiresAt });
    const renew = await call(t.app, 'POST', '/api/manage/static-renew-recharge', { token: admin, body: { staticProxyIds: [ip!.id], days: 3, note: 'sorry for the outage' } });
    expect(renew.body.data.orders).toEqual([expect.objectContaining({ kind: 'static-renew', status: 'paid', amount: 0 })]);
    const [after] = (await call(t.app, 'GET', '/api/proxy/static', { token: customer.token })).body.data.items as { expiresAt: string }[];
    expect(new Date(after!.expiresAt).getTime() - new Date(ip!.expiresAt).getTime()).toBe(3 * DAY);
    const audit = await t.db.db.selectFrom('audit_logs').select('action').where('target', '=', `user:${customer.user.id}`).execute();
    expect(audit.map((a) => a.action).sort()).toEqual(['static.grant', 'static.grant-renewal']);
    const none = await call(t.app, 'POST', '/api/manage/static-recharge', { token: admin, body: { userId: customer.user.id, regionId, businessId, quantity: 50, days: 7, note: 'x' } });
    expect([none.status, none.body.code]).toEqual([409, 'OUT_OF_STOCK']);
    expect((await call(t.app, 'POST', '/api/manage/static-recharge', { token: customer.token, body: { userId: customer.user.id, regionId, businessId, quantity: 1, days: 7, note: 'x' } })).status).toBe(403);
  });

  it('100 buyers racing for 10 IPs get 10 IPs between them, none twice', async () => {
    const free = await available();
    await stockUp(10 - free);
    const buyers = await Promise.all(Array.from({ length: 20 }, () => signedIn(t)));
    const results = await Promise.all(buyers.flatMap((b) => Array.from({ length: 5 }, () => buyStatic(b.token, 1))));
    const ok = results.filter((r) => r.status === 200);
    expect(ok).toHaveLength(10);
    expect(results.filter((r) => r.status !== 200).every((r) => r.body.code === 'OUT_OF_STOCK')).toBe(true);
    await Promise.all(ok.map((r) => pay(r.body.data.order.orderNo)));
    const allocated = await t.db.db.selectFrom('static_allocations').select(['inventory_id']).execute();
    expect(new Set(allocated.map((a) => a.inventory_id)).size).toBe(allocated.length);
    expect(await available()).toBe(0);
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call } from '../../../test/auth-flows';
import { buy, configureMethod, seedCatalogue, signedIn } from '../../../test/commerce';
import { text } from '../../../test/i18n';
import { recordFigure } from '../../../test/security-figures';
import { DIALECTS, type TestApp, createTestApp } from '../../../test/test-app';
import { MINUTE } from '../../lib/clock';
import { MAX_OPEN_ORDERS } from './open-order-cap';

const TRON_ADDRESS = 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t';

describe.each(DIALECTS)('open orders per customer on %s', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(dialect);
    await seedCatalogue(t);
    const admin = (await signedIn(t, 'admin')).token;
    await configureMethod(t, admin, 'usdt-trc20', { address: TRON_ADDRESS, apiBase: 'http://127.0.0.1:9' });
  });
  afterAll(() => t.close());

  const openOrders = async (userId: number) =>
    Number(
      (
        await t.db.db
          .selectFrom('orders')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .where('user_id', '=', userId)
          .where('status', '=', 'pending')
          .executeTakeFirstOrThrow()
      ).n,
    );
  const buyAs = (token: string, lang = 'en') => call(t.app, 'POST', '/api/buy/dynamic', { token, body: { goodsId: 1, payMethod: 'sandbox' }, lang });

  it(`holds at most ${MAX_OPEN_ORDERS} unpaid orders per customer, with a localized 409 that changes nothing`, async () => {
    const { token, user } = await signedIn(t);
    const made: string[] = [];
    for (let i = 0; i < MAX_OPEN_ORDERS; i++) made.push(await buy(t, token, 1, 'sandbox'));
    for (const lang of ['en', 'zh-cn', 'zh'] as const) {
      const refused = await buyAs(token, lang);
      expect(refused.status).toBe(409);
      expect(refused.body).toEqual({ code: 'ORDER_OPEN_LIMIT', message: text(lang, 'errors.ORDER_OPEN_LIMIT', { max: MAX_OPEN_ORDERS }) });
    }
    expect(await openOrders(user.id)).toBe(MAX_OPEN_ORDERS);
    // Another customer is not affected.
    expect((await buyAs((await signedIn(t)).token)).status).toBe(200);
    // Paying one frees its place.
    await t.app.inject({ method: 'POST', url: `/api/pay/sandbox/${made[0]}/pay`, headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: '' });
    expect((await buyAs(token)).status).toBe(200);
    expect((await buyAs(token)).status).toBe(409);
    // So does the end of the 30 minutes, even before the expiry job has marked them.
    t.clock.advance(31 * MINUTE);
    expect((await buyAs(token)).status).toBe(200);
  });

  it('counts orders created at once: of 20 parallel buys by one customer exactly the cap succeeds', async () => {
    const { token, user } = await signedIn(t);
    const answers = await Promise.all(
      Array.from({ length: 20 }, () => call(t.app, 'POST', '/api/buy/dynamic', { token, body: { goodsId: 1, payMethod: 'usdt-trc20' } })),
    );
    const statuses = answers.map((a) => a.status);
    expect(statuses.filter((s) => s === 200)).toHaveLength(MAX_OPEN_ORDERS);
    expect(answers.filter((a) => a.status !== 200).map((a) => a.body.code)).toEqual(Array(20 - MAX_OPEN_ORDERS).fill('ORDER_OPEN_LIMIT'));
    expect(await openOrders(user.id)).toBe(MAX_OPEN_ORDERS);
    // Two at once with one place left: only one gets it.
    const second = await signedIn(t);
    for (let i = 0; i < MAX_OPEN_ORDERS - 1; i++) await buy(t, second.token, 1, 'sandbox');
    const pair = await Promise.all([buyAs(second.token), buyAs(second.token)]);
    expect(pair.map((a) => a.status).sort()).toEqual([200, 409]);
    expect(await openOrders(second.user.id)).toBe(MAX_OPEN_ORDERS);
    if (dialect === 'postgres') {
      recordFigure({
        id: 'shop-open-orders',
        threat: 'one customer holds every unique USDT amount of a package with thousands of pending orders (503 for everyone for 30 minutes)',
        test: 'apps/server/src/modules/orders/open-orders.test.ts',
        figure: `20 parallel USDT buys by one customer on PostgreSQL: ${statuses.filter((s) => s === 200).length} orders created, ${statuses.filter((s) => s === 409).length} refused 409 ORDER_OPEN_LIMIT; 2 parallel buys with one place left: 1 created, 1 refused. One customer holds at most ${MAX_OPEN_ORDERS} of the 9,999 amounts of a price (same on SQLite)`,
      });
    }
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call } from '../../../test/auth-flows';
import { buy, configureMethod } from '../../../test/commerce';
import { distributionApp, referralOf, sandboxPaidOrder, signedInDistributor } from '../../../test/distribution-kit';
import { DIALECTS, type TestApp } from '../../../test/test-app';

const SETTINGS = { defaultRate: 10, holdDays: 1, minPayout: 100, payoutMethods: ['bank'] };

/** The sandbox is pretend money: outside the demo its payments earn no commission (docs/business-rules.md#commission). */
describe.each(DIALECTS)('sandbox payments outside the demo, on %s', (dialect) => {
  let t: TestApp;
  let admin: { token: string };
  beforeAll(async () => {
    ({ t, admin } = await distributionApp(dialect, SETTINGS, { DEMO_DATA: 'off' }));
    await configureMethod(t, admin.token, 'manual', { instructionsEn: 'Pay to X', instructionsZhCn: '付款到 X', instructionsZh: '付款到 X' });
  });
  afterAll(() => t.close());

  const earnings = (distributorId: number) => t.db.db.selectFrom('commissions').select(['order_id', 'amount']).where('distributor_id', '=', distributorId).execute();

  it('a sandbox-paid order of a referral writes no commission; an order an admin verified as paid does', async () => {
    const d = await signedInDistributor(t);
    const c = await referralOf(t, d.user.id);
    await sandboxPaidOrder(t, c.token);
    expect(await earnings(d.user.id)).toEqual([]);
    const orderNo = await buy(t, c.token, 2, 'manual');
    expect((await call(t.app, 'POST', '/api/manage/order-verify', { token: admin.token, body: { orderNo } })).status).toBe(200);
    expect((await earnings(d.user.id)).map((e) => Number(e.amount))).toEqual([250]);
  });
});

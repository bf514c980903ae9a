import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call } from '../../../test/auth-flows';
import { signedIn } from '../../../test/commerce';
import { distributionApp, referralOf, sandboxPaidOrder, signedInDistributor } from '../../../test/distribution-kit';
import { text } from '../../../test/i18n';
import { DIALECTS, type TestApp } from '../../../test/test-app';
import { DAY } from '../../lib/clock';

const SETTINGS = { defaultRate: 10, holdDays: 1, minPayout: 100, payoutMethods: ['usdt-trc20'] };

describe.each(DIALECTS)('the commission ledger list on %s', (dialect) => {
  let t: TestApp;
  let admin: { token: string };
  beforeAll(async () => {
    ({ t, admin } = await distributionApp(dialect, SETTINGS));
  });
  afterAll(() => t.close());

  const distributor = () => signedInDistributor(t);
  const referral = (referrerId: number) => referralOf(t, referrerId);
  const paidOrder = (token: string) => sandboxPaidOrder(t, token);
  const refund = (orderNo: string) => call(t.app, 'POST', '/api/manage/order-refund', { token: admin.token, body: { orderNo, note: 'Sent back by bank transfer' } });
  const ledger = (token: string, query = '', lang?: string) => call(t.app, 'GET', `/api/distribution/commission${query}`, { token, lang });

  it('a distributor sees their own rows, each state as of now, a reversal as a negative row beside the earning it took back; another distributor named is 404', async () => {
    const d = await distributor();
    const other = await distributor();
    const c = await referral(d.user.id);
    await paidOrder((await referral(other.user.id)).token);
    const reversedOrder = await paidOrder(c.token);
    t.clock.advance(SETTINGS.holdDays * DAY + 1000);
    expect((await refund(reversedOrder)).status).toBe(200);
    const voidedOrder = await paidOrder(c.token);
    expect((await refund(voidedOrder)).status).toBe(200);
    const pendingOrder = await paidOrder(c.token);

    const res = await ledger(d.token);
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ total: 4, page: 1, pageSize: 20 });
    const rows = res.body.data.items as { orderNo: string; amount: number; state: string }[];
    expect(rows.map((r) => [r.orderNo, r.amount, r.state])).toEqual([
      [pendingOrder, 250, 'pending'],
      [voidedOrder, 250, 'voided'],
      [reversedOrder, -250, 'reversed'],
      // Taken back by the refund: not money still available.
      [reversedOrder, 250, 'reversed'],
    ]);
    expect(rows[0]).toMatchObject({ distributorId: d.user.id, buyerEmail: c.user.email, orderAmount: 2500, rate: 10, currency: 'USD', voidedAt: null });

    const reversed = await ledger(d.token, '?state=reversed');
    expect(reversed.body.data).toMatchObject({ total: 2, items: [{ orderNo: reversedOrder, amount: -250 }, { orderNo: reversedOrder, amount: 250 }] });
    expect((await ledger(d.token, '?state=available')).body.data).toMatchObject({ total: 0, items: [] });
    const paged = await ledger(d.token, '?state=reversed&page=2&pageSize=1');
    expect(paged.body.data).toMatchObject({ total: 2, items: [{ orderNo: reversedOrder, amount: 250 }] });
    expect((await ledger(d.token, `?distributorId=${d.user.id}`)).body.data.total).toBe(4);
    expect((await ledger(d.token, `?distributorId=${other.user.id}`)).status).toBe(404);
    const unknownState = await ledger(d.token, '?state=settled', 'zh');
    expect(unknownState.status).toBe(400);
    expect(unknownState.body.message).toContain(text('zh', 'validation.commissionState'));
  });

  it("an admin sees everyone's rows or one distributor's; a customer is refused (403)", async () => {
    const a = await distributor();
    const b = await distributor();
    await paidOrder((await referral(a.user.id)).token);
    await paidOrder((await referral(b.user.id)).token);
    const all = await ledger(admin.token, '?pageSize=100');
    const owners = new Set((all.body.data.items as { distributorId: number }[]).map((r) => r.distributorId));
    expect(owners).toContain(a.user.id);
    expect(owners).toContain(b.user.id);
    const onlyB = await ledger(admin.token, `?distributorId=${b.user.id}`);
    expect(onlyB.body.data).toMatchObject({ total: 1, items: [{ distributorId: b.user.id, state: 'pending' }] });
    const customer = await signedIn(t);
    expect((await ledger(customer.token)).body).toMatchObject({ code: 'FORBIDDEN' });
    expect((await ledger(customer.token)).status).toBe(403);
  });
});

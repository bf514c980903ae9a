import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { uniqueEmail, uniqueIp } from '../../../test/accounts';
import { call, login } from '../../../test/auth-flows';
import { distributionApp, referralOf, sandboxPaidOrder, signedInDistributor } from '../../../test/distribution-kit';
import { text } from '../../../test/i18n';
import { DIALECTS, type TestApp } from '../../../test/test-app';
import { DAY } from '../../lib/clock';
import { UserRepository } from '../auth/user-repository';

const PASSWORD = 'Passw0rdOK';
const SETTINGS = { defaultRate: 10, holdDays: 1, minPayout: 100, payoutMethods: ['bank'] };

/**
 * Customers a distributor creates with saveuser need no mail code, so the distributor can buy as them:
 * whether such accounts earn commission is the operator's setting, off by default
 * (docs/business-rules.md#commission).
 */
describe.each(DIALECTS)('commission on accounts a distributor created, on %s', (dialect) => {
  let t: TestApp;
  let admin: { token: string };
  beforeAll(async () => {
    ({ t, admin } = await distributionApp(dialect, SETTINGS));
  });
  afterAll(() => t.close());

  const settings = (body?: Record<string, unknown>, lang?: string) =>
    call(t.app, body ? 'POST' : 'GET', '/api/manage/distribution-settings', { token: admin.token, body, lang });
  const earnings = (distributorId: number) =>
    t.db.db.selectFrom('commissions').select(['buyer_id', 'amount']).where('distributor_id', '=', distributorId).orderBy('id').execute();
  /** A customer the distributor created with saveuser, signed in as the distributor would. */
  async function created(d: { token: string }) {
    const email = uniqueEmail('made');
    const made = await call(t.app, 'POST', '/api/distribution/saveuser', { token: d.token, body: { email, password: PASSWORD } });
    expect(made.status).toBe(200);
    const session = await login(t.app, email, PASSWORD, uniqueIp());
    return { id: made.body.data.id as number, token: session.body.token as string };
  }

  it('is off by default and validated; saveuser records on the user who created it', async () => {
    expect((await settings()).body.data).toEqual({ ...SETTINGS, commissionOnCreatedAccounts: false });
    const bad = await settings({ ...SETTINGS, commissionOnCreatedAccounts: 'yes' }, 'zh-cn');
    expect(bad).toMatchObject({ status: 400, body: { code: 'VALIDATION_FAILED' } });
    expect(bad.body.message).toContain(text('zh-cn', 'validation.commissionOnCreatedAccounts'));
    const d = await signedInDistributor(t);
    const c = await created(d);
    expect(await new UserRepository(t.db.db).findById(c.id)).toMatchObject({ referrer_id: d.user.id, created_by: d.user.id });
  });

  it('an order of an account the distributor created earns nothing while the setting is off, and earns when the operator turns it on', async () => {
    const d = await signedInDistributor(t);
    const own = await created(d);
    const invited = await referralOf(t, d.user.id);
    await sandboxPaidOrder(t, own.token);
    await sandboxPaidOrder(t, invited.token);
    expect(await earnings(d.user.id)).toEqual([{ buyer_id: invited.user.id, amount: 250 }]);

    expect((await settings({ ...SETTINGS, commissionOnCreatedAccounts: true })).status).toBe(200);
    await sandboxPaidOrder(t, own.token);
    expect(await earnings(d.user.id)).toEqual([
      { buyer_id: invited.user.id, amount: 250 },
      { buyer_id: own.id, amount: 250 },
    ]);
    expect((await settings({ ...SETTINGS, commissionOnCreatedAccounts: false })).status).toBe(200);

    // The admin's payoff desk says how much of what the distributor earned came from accounts they created.
    t.clock.advance(SETTINGS.holdDays * DAY + 1000);
    const payoff = await call(t.app, 'POST', '/api/distribution/payoff', { token: d.token, body: { amount: 500, method: 'bank', account: 'acct' } });
    expect(payoff.status).toBe(200);
    const desk = await call(t.app, 'GET', `/api/distribution/payoff?distributorId=${d.user.id}`, { token: admin.token });
    expect(desk.body.data.items).toEqual([expect.objectContaining({ id: payoff.body.data.id, earned: 500, earnedFromCreatedAccounts: 250 })]);
  });
});

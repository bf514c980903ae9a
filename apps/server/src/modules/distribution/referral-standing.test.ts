import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { uniqueEmail, uniqueIp } from '../../../test/accounts';
import { call, login } from '../../../test/auth-flows';
import { distributionApp, signedInDistributor } from '../../../test/distribution-kit';
import { text } from '../../../test/i18n';
import { DIALECTS, type TestApp } from '../../../test/test-app';
import { UserRepository } from '../auth/user-repository';

const PASSWORD = 'Passw0rdOK';
const SETTINGS = { defaultRate: 10, holdDays: 1, minPayout: 100, payoutMethods: ['bank'] };

/**
 * A distributor's suspension of their own customer and an admin's disable are two things
 * (docs/business-rules.md#referred-users): the distributor lifts only their own.
 */
describe.each(DIALECTS)('who disabled a referral, on %s', (dialect) => {
  let t: TestApp;
  let admin: { token: string; user: { id: number } };
  beforeAll(async () => {
    ({ t, admin } = await distributionApp(dialect, SETTINGS));
  });
  afterAll(() => t.close());

  const saveUser = (token: string, body: Record<string, unknown>, lang?: string) => call(t.app, 'POST', '/api/distribution/saveuser', { token, body, lang });
  const adminSets = (id: number, status: 'active' | 'disabled') => call(t.app, 'POST', `/api/manage/user/${id}`, { token: admin.token, body: { status } });
  const row = (id: number) => new UserRepository(t.db.db).findById(id);
  /** The referral as the distributor's list shows it. */
  const listed = async (token: string, id: number) => {
    const res = await call(t.app, 'GET', '/api/distribution/user?pageSize=100', { token });
    expect(res.status).toBe(200);
    return (res.body.data.items as { id: number; status: string; disabledBy: string | null }[]).find((u) => u.id === id);
  };
  /** A distributor and a customer they created with saveuser. */
  async function madeCustomer() {
    const d = await signedInDistributor(t);
    const email = uniqueEmail('made');
    const made = await saveUser(d.token, { email, password: PASSWORD });
    expect(made.status).toBe(200);
    return { d, id: made.body.data.id as number, email };
  }

  it('a distributor suspends their own customer and lifts it again', async () => {
    const { d, id, email } = await madeCustomer();
    expect((await saveUser(d.token, { id, status: 'disabled' })).status).toBe(200);
    expect(await row(id)).toMatchObject({ status: 'disabled', disabled_by: 'distributor' });
    expect(await listed(d.token, id)).toMatchObject({ status: 'disabled', disabledBy: 'distributor' });
    expect((await saveUser(d.token, { id, status: 'active' })).status).toBe(200);
    expect(await row(id)).toMatchObject({ status: 'active', disabled_by: null });
    expect(await listed(d.token, id)).toMatchObject({ status: 'active', disabledBy: null });
    expect((await login(t.app, email, PASSWORD, uniqueIp())).status).toBe(200);
  });

  it("an admin's disable stands: the distributor's attempt to lift it is refused in their language and changes nothing", async () => {
    const { d, id, email } = await madeCustomer();
    expect((await adminSets(id, 'disabled')).status).toBe(200);
    expect(await listed(d.token, id)).toMatchObject({ status: 'disabled', disabledBy: 'admin' });
    const lift = await saveUser(d.token, { id, status: 'active', remark: 'please' }, 'zh');
    expect(lift).toMatchObject({ status: 403, body: { code: 'REFERRAL_DISABLED_BY_ADMIN', message: text('zh', 'errors.REFERRAL_DISABLED_BY_ADMIN') } });
    expect(await row(id)).toMatchObject({ status: 'disabled', disabled_by: 'admin', distributor_remark: null });
    expect((await login(t.app, email, PASSWORD, uniqueIp())).body.code).toBe('ACCOUNT_DISABLED');
    // The distributor may still write a remark on the user, and "disable" again changes nothing.
    expect((await saveUser(d.token, { id, remark: 'operator disabled' })).status).toBe(200);
    expect((await saveUser(d.token, { id, status: 'disabled' })).status).toBe(200);
    expect(await row(id)).toMatchObject({ status: 'disabled', disabled_by: 'admin', distributor_remark: 'operator disabled' });
  });

  it("an admin's disable of a suspended customer makes the suspension the admin's; an admin's enable lifts either", async () => {
    const { d, id } = await madeCustomer();
    await saveUser(d.token, { id, status: 'disabled' });
    expect((await adminSets(id, 'disabled')).status).toBe(200);
    expect(await row(id)).toMatchObject({ status: 'disabled', disabled_by: 'admin' });
    expect((await saveUser(d.token, { id, status: 'active' })).status).toBe(403);
    expect((await adminSets(id, 'active')).status).toBe(200);
    expect(await row(id)).toMatchObject({ status: 'active', disabled_by: null });

    await saveUser(d.token, { id, status: 'disabled' });
    expect((await adminSets(id, 'active')).status).toBe(200);
    expect(await row(id)).toMatchObject({ status: 'active', disabled_by: null });
  });

  it("an admin's bulk disable takes over a distributor's suspension", async () => {
    const { d, id } = await madeCustomer();
    await saveUser(d.token, { id, status: 'disabled' });
    const bulk = await call(t.app, 'POST', '/api/manage/user-bulk', { token: admin.token, body: { action: 'disable', ids: [id] } });
    expect(bulk.status).toBe(200);
    expect(await row(id)).toMatchObject({ status: 'disabled', disabled_by: 'admin' });
    expect((await saveUser(d.token, { id, status: 'active' })).body.code).toBe('REFERRAL_DISABLED_BY_ADMIN');
  });

  it("a user disabled before who disabled was recorded counts as the admin's", async () => {
    const { d, id } = await madeCustomer();
    await new UserRepository(t.db.db).update(id, { status: 'disabled' });
    expect((await saveUser(d.token, { id, status: 'active' })).status).toBe(403);
    expect((await row(id))?.status).toBe('disabled');
  });
});

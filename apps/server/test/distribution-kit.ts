import { expect } from 'vitest';
import { UserRepository } from '../src/modules/auth/user-repository';
import { createUser, uniqueEmail, uniqueIp } from './accounts';
import { call, login } from './auth-flows';
import { buy, seedCatalogue, signedIn } from './commerce';
import type { Dialect } from '../src/db/database';
import { type TestApp, createTestApp } from './test-app';

const PASSWORD = 'Passw0rdOK';
const form = { headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: '' };

/** The sandbox page's "pay" press for an order. */
export const sandboxPay = (t: TestApp, orderNo: string) => t.app.inject({ method: 'POST', url: `/api/pay/sandbox/${orderNo}/pay`, ...form });

/** A distributor flagged in the store (at `rate` percent, or the shop's default) and signed in. */
export async function signedInDistributor(t: TestApp, rate: number | null = null) {
  const email = uniqueEmail('dist');
  const user = await createUser(t, { email, password: PASSWORD, isDistributor: true });
  if (rate !== null) await new UserRepository(t.db.db).update(user.id, { commission_rate: rate });
  const res = await login(t.app, email, PASSWORD, uniqueIp());
  return { user, token: res.body.token as string };
}

/** A customer whose referrer is `referrerId`, signed in. */
export async function referralOf(t: TestApp, referrerId: number) {
  const c = await signedIn(t);
  await new UserRepository(t.db.db).update(c.user.id, { referrer_id: referrerId });
  return c;
}

/** An order of `goodsId` (2: 2500 minor units in the demo catalogue) bought and paid with the sandbox. */
export async function sandboxPaidOrder(t: TestApp, token: string, goodsId = 2): Promise<string> {
  const orderNo = await buy(t, token, goodsId, 'sandbox');
  expect((await sandboxPay(t, orderNo)).statusCode).toBe(200);
  return orderNo;
}

/**
 * A test app with the demo catalogue, a signed-in admin, and the distribution settings `settings` saved. It is
 * the demo unless `env` says otherwise, so sandbox payments earn commission (docs/business-rules.md#commission).
 */
export async function distributionApp(dialect: Dialect, settings: Record<string, unknown>, env: Record<string, string> = { DEMO_DATA: 'on' }) {
  const t = await createTestApp(dialect, env);
  await seedCatalogue(t);
  const admin = await signedIn(t, 'admin');
  expect((await call(t.app, 'POST', '/api/manage/distribution-settings', { token: admin.token, body: settings })).status).toBe(200);
  return { t, admin };
}

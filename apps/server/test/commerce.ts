import type { PayMethod } from '@resi/contract';
import { seedDemoCatalogue } from '../src/modules/catalogue/demo-seed';
import { createUser, uniqueEmail, uniqueIp } from './accounts';
import { call, login } from './auth-flows';
import type { TestApp } from './test-app';

const PASSWORD = 'Passw0rdOK';

/** A user created in the store and logged in through the API: its row and bearer token. */
export async function signedIn(t: TestApp, role: 'customer' | 'admin' = 'customer') {
  const email = uniqueEmail(role);
  const user = await createUser(t, { email, password: PASSWORD, role });
  const res = await login(t.app, email, PASSWORD, uniqueIp());
  if (res.status !== 200 || !res.body.token) throw new Error(`login: ${res.status} ${JSON.stringify(res.body)}`);
  return { user, token: res.body.token };
}

/** A new session for a user made by signedIn, e.g. after the test clock moved past the old one's life. */
export async function signInAgain(t: TestApp, email: string): Promise<string> {
  const res = await login(t.app, email, PASSWORD, uniqueIp());
  if (res.status !== 200 || !res.body.token) throw new Error(`login: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.token;
}

/** The demo catalogue (4 packages, regions, businesses, static prices) with the sandbox switched on. */
export async function seedCatalogue(t: TestApp): Promise<void> {
  await seedDemoCatalogue(t.db.db, t.clock, 'USD');
}

/** Saves a payment method's settings through the admin API; throws unless it worked. */
export async function configureMethod(t: TestApp, adminToken: string, method: PayMethod, settings: Record<string, string> = {}, secrets: Record<string, string> = {}) {
  const res = await call(t.app, 'POST', '/api/manage/pay-config', { token: adminToken, body: { method, enabled: true, settings, secrets } });
  if (res.status !== 200) throw new Error(`pay-config ${method}: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.data;
}

/** Buys package `goodsId` with `method`; returns the order number. */
export async function buy(t: TestApp, token: string, goodsId: number, method: PayMethod): Promise<string> {
  const res = await call(t.app, 'POST', '/api/buy/dynamic', { token, body: { goodsId, payMethod: method } });
  if (res.status !== 200) throw new Error(`buy: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.data.order.orderNo as string;
}

export async function balance(t: TestApp, token: string): Promise<number> {
  const res = await call(t.app, 'GET', '/api/traffic', { token });
  return res.body.data.balanceBytes as number;
}

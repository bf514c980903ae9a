import { type APIRequestContext, expect } from '@playwright/test';
import { E2E } from './e2e-env';
import { apiRegister } from './helpers';

/*
 * Data a browser test needs on its pages but does not test, made through the API: orders paid with the
 * sandbox, a static IP granted by the admin, a distributor with a referral and a payoff request.
 */

/** A TRON address whose checksum holds (the USDT-TRC20 contract's own). */
export const TRON_ADDRESS = 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t';

/** Calls the API as `token` and answers the envelope's `data`; anything but 2xx fails the test with the body. */
export async function call<T>(request: APIRequestContext, token: string, method: 'get' | 'post', url: string, data?: unknown): Promise<T> {
  const res = await request[method](url, { headers: { Authorization: `Bearer ${token}` }, data });
  expect(res.ok(), `${method} ${url}: ${await res.text()}`).toBe(true);
  return ((await res.json()) as { data: T }).data;
}

export async function userId(request: APIRequestContext, token: string): Promise<number> {
  return (await call<{ id: number }>(request, token, 'get', '/api/user')).id;
}

/** Orders the demo catalogue's "Basic 10 GB" ($25.00) with the sandbox; paid unless `pay` is false. Answers the order number. */
export async function buyBasic(request: APIRequestContext, token: string, pay = true): Promise<string> {
  const goods = await call<{ packages: { id: number; name: { en: string } }[] }>(request, token, 'get', '/api/goods');
  const basic = goods.packages.find((p) => p.name.en === 'Basic 10 GB');
  expect(basic, 'the demo catalogue has Basic 10 GB').toBeDefined();
  const bought = await call<{ order: { orderNo: string } }>(request, token, 'post', '/api/buy/dynamic', { goodsId: basic?.id, payMethod: 'sandbox' });
  if (pay) expect((await request.post(`/api/pay/sandbox/${bought.order.orderNo}/pay`, { form: {} })).ok()).toBe(true);
  return bought.order.orderNo;
}

/**
 * The admin imports one line of the demo region Singapore (its upstream the local proxy, so the line
 * carries) and grants it to the customer for 30 days under E-commerce. Answers the exit address.
 */
export async function grantStaticIp(request: APIRequestContext, adminToken: string, customerId: number): Promise<string> {
  // A documentation address (RFC 5737) no other spec uses; random, so a test run again finds it free.
  const exitIp = `192.0.2.${10 + Math.floor(Math.random() * 240)}`;
  const regions = await call<{ items: { id: number; name: { en: string } }[] }>(request, adminToken, 'get', '/api/manage/static-region');
  const region = regions.items.find((r) => r.name.en === 'Singapore');
  const businesses = await call<{ items: { id: number; name: { en: string } }[] }>(request, adminToken, 'get', '/api/manage/business');
  const business = businesses.items.find((b) => b.name.en === 'E-commerce');
  expect(region && business, 'the demo catalogue has Singapore and E-commerce').toBeTruthy();
  await call(request, adminToken, 'post', '/api/manage/static-inventory', { regionId: region?.id, lines: `http://127.0.0.1:${E2E.upstreamPort} ${exitIp}` });
  await call(request, adminToken, 'post', '/api/manage/static-recharge', {
    userId: customerId,
    regionId: region?.id,
    businessId: business?.id,
    quantity: 1,
    days: 30,
    note: 'e2e seed',
  });
  return exitIp;
}

export interface Distribution {
  visitorEmail: string;
  visitorToken: string;
  /** The visitor's paid order, whose commission the payoff request asks for. */
  orderNo: string;
  payoffId: number;
}

/**
 * Makes the customer a distributor at 20 %, registers a visitor with their invite code, has the visitor
 * pay $25.00 and the distributor ask for the $5.00 commission (pending, as a new request is). The shop's
 * settings are set for that (no hold, $5 minimum) and put back as they were.
 */
export async function distributorWithPayoff(request: APIRequestContext, adminToken: string, distributorToken: string): Promise<Distribution> {
  await call(request, adminToken, 'post', `/api/manage/user/${await userId(request, distributorToken)}`, { isDistributor: true, commissionRate: 20 });
  const before = await call<Record<string, unknown>>(request, adminToken, 'get', '/api/manage/distribution-settings');
  await call(request, adminToken, 'post', '/api/manage/distribution-settings', { defaultRate: 10, holdDays: 0, minPayout: 500, payoutMethods: ['usdt-trc20'] });
  try {
    const { inviteCode } = await call<{ inviteCode: string }>(request, distributorToken, 'get', '/api/distribution/invite');
    const visitorEmail = `referral-${Date.now()}@e2e.test`;
    const visitorToken = await apiRegister(visitorEmail, 'Referral12345', { inviteCode });
    const orderNo = await buyBasic(request, visitorToken);
    const payoff = await call<{ id: number }>(request, distributorToken, 'post', '/api/distribution/payoff', { amount: 500, method: 'usdt-trc20', account: TRON_ADDRESS });
    return { visitorEmail, visitorToken, orderNo, payoffId: payoff.id };
  } finally {
    await call(request, adminToken, 'post', '/api/manage/distribution-settings', before);
  }
}

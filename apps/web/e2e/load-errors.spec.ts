import { expect, test, type Page, type Route } from '@playwright/test';
import { E2E } from './e2e-env';
import { apiLogin, apiRegister, keepScreenshot, openWithSession } from './helpers';

// Loading, empty and error are three states (docs/console.md#loading-empty-and-error): with the real server
// behind it, a request the browser is made to fail shows the inline error and its Retry, never an empty or
// zero stand-in; once the request goes through again, Retry shows what the server holds.
test.describe.configure({ mode: 'serial' });

const email = `load-errors-${Date.now()}@e2e.test`;
const GB = 1024 ** 3;
const FAULT = { code: 'INTERNAL', message: 'Internal server error' };
let token = '';

/** Makes every request to these API paths answer 500 in the API's error shape, until `restore()`. */
async function failRequests(page: Page, paths: string[]) {
  const matches = (url: URL) => paths.includes(url.pathname);
  const handler = (route: Route) => route.fulfill({ status: 500, json: FAULT });
  await page.route(matches, handler);
  return { restore: () => page.unroute(matches, handler) };
}

test.beforeAll(async ({ request }) => {
  token = await apiRegister(email, 'LoadErrors123');
  const me = await request.get('/api/user', { headers: { Authorization: `Bearer ${token}` } });
  const userId = ((await me.json()) as { data: { id: number } }).data.id;
  const adminToken = await apiLogin(request, E2E.adminEmail, E2E.adminPassword);
  const res = await request.post('/api/manage/recharge', { headers: { Authorization: `Bearer ${adminToken}` }, data: { userId, bytes: 3 * GB, validityDays: 30, note: 'e2e load errors' } });
  expect(res.ok(), await res.text()).toBe(true);
});

test('Account Home with its data failing shows the error and Retry, not "0 B"; Retry brings the balance', async ({ page }) => {
  const outage = await failRequests(page, ['/api/traffic', '/api/record/dynamic-order']);
  await openWithSession(page, `/manage/center?lang=en&token=${token}`);

  const balance = page.getByTestId('traffic-balance');
  await expect(balance.getByTestId('query-error')).toContainText('Internal server error');
  await expect(page.getByTestId('home-orders').getByTestId('query-error')).toBeVisible();
  await expect(page.getByTestId('balance-value')).toHaveCount(0);
  await expect(page.getByTestId('home-orders')).not.toContainText('No orders yet');
  await keepScreenshot(page, 'load-error-center');

  await outage.restore();
  const recovered = page.waitForResponse((res) => new URL(res.url()).pathname === '/api/traffic' && res.status() === 200);
  await balance.getByTestId('query-retry').click();
  await recovered;
  await expect(page.getByTestId('balance-value')).toContainText('3 GB');
  await expect(balance.getByTestId('query-error')).toHaveCount(0);
  await page.getByTestId('home-orders').getByTestId('query-retry').click();
  await expect(page.getByTestId('home-order')).toHaveCount(1);
});

test('Get Proxy with its accounts and gateway failing says so; after Retry it tells the real empty state', async ({ page, request }) => {
  const endpoint = await request.get('/api/proxy/endpoint', { headers: { Authorization: `Bearer ${token}` } });
  const { host } = ((await endpoint.json()) as { data: { host: string } }).data;
  const outage = await failRequests(page, ['/api/proxy/dynamic', '/api/proxy/endpoint']);
  await openWithSession(page, `/manage/center/proxy?lang=en&token=${token}`);

  await expect(page.getByTestId('proxy-accounts-state').getByTestId('query-error')).toContainText('Your proxy accounts could not be loaded.');
  await expect(page.getByTestId('proxy-endpoint').getByTestId('query-error')).toContainText('The gateway address could not be loaded.');
  await expect(page.getByTestId('no-accounts')).toHaveCount(0);
  await expect(page.getByTestId('proxy-endpoint').locator('.ant-skeleton')).toHaveCount(0);
  await keepScreenshot(page, 'load-error-proxy');

  await outage.restore();
  await page.getByTestId('proxy-endpoint').getByTestId('query-retry').click();
  await expect(page.getByTestId('endpoint-host')).toHaveText(host);
  await page.getByTestId('proxy-accounts-state').getByTestId('query-retry').click();
  // This customer really has no proxy account: now, and only now, the page says so.
  await expect(page.getByTestId('no-accounts')).toContainText('You have no proxy account yet');
});

/** The API and the console's code stop answering (the connection is refused), as when the server is down. */
async function serverDown(page: Page, what: 'api' | 'api and code') {
  const matches = (url: URL) => url.pathname.startsWith('/api/') || (what === 'api and code' && url.pathname.startsWith('/manage/assets/'));
  const handler = (route: Route) => route.abort('connectionrefused');
  await page.route(matches, handler);
  return { restore: () => page.unroute(matches, handler) };
}

test('a network blip signs no one out: the console says it cannot reach the server, and Retry carries on', async ({ page }) => {
  await openWithSession(page, `/manage/center?lang=en&token=${token}`);
  await expect(page.getByTestId('balance-value')).toContainText('3 GB');

  const outage = await serverDown(page, 'api');
  await page.getByRole('menuitem', { name: 'Get Proxy' }).click();
  await expect(page).toHaveURL(/\/manage\/center\/proxy/);
  await expect(page.getByTestId('server-unreachable')).toContainText('Cannot reach the server');
  await expect(page.getByTestId('proxy-accounts-state').getByTestId('query-error')).toBeVisible();
  expect(await page.evaluate(() => sessionStorage.getItem('token'))).not.toBeNull();
  await keepScreenshot(page, 'server-unreachable-layout');

  await outage.restore();
  await page.getByTestId('server-unreachable-retry').click();
  await expect(page.getByTestId('server-unreachable')).toHaveCount(0);
  // What failed meanwhile comes back with the server, without a Retry per card.
  await expect(page.getByTestId('no-accounts')).toBeVisible();
  await expect(page).toHaveURL(/\/manage\/center\/proxy/);
});

test("a page whose code cannot load while the server is down says so with a retry, inside the console", async ({ page }) => {
  await openWithSession(page, `/manage/center?lang=en&token=${token}`);
  await expect(page.getByTestId('balance-value')).toContainText('3 GB');

  const outage = await serverDown(page, 'api and code');
  await page.getByRole('menuitem', { name: 'Usage Record' }).click();
  await expect(page.getByTestId('page-unreachable')).toContainText('Cannot reach the server');
  // Said once, in the page's place: the menu stays, and the layout's notice does not repeat it.
  await expect(page.getByRole('menuitem', { name: 'Account Home' })).toBeVisible();
  await expect(page.getByTestId('server-unreachable')).toHaveCount(0);
  await page.getByTestId('route-error-retry').click();
  await expect(page.getByTestId('server-still-down')).toBeVisible();
  await keepScreenshot(page, 'server-unreachable-page');

  await outage.restore();
  await page.getByTestId('route-error-retry').click();
  await expect(page.getByTestId('usage-record-totals')).toBeVisible({ timeout: 30_000 });
  await expect(page).toHaveURL(/\/manage\/center\/usageRecord/);
});

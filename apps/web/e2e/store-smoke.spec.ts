import { expect, test } from '@playwright/test';
import { E2E } from './e2e-env';
import { apiLogin, apiRegister, choose, choosePayMethod, confirmDialog, openWithSession, settled } from './helpers';
import { call, distributorWithPayoff, grantStaticIp, TRON_ADDRESS, userId } from './seed';

/*
 * The browser run on PostgreSQL (playwright.config.ts runs only this spec there): a few journeys that cross
 * the store — a purchase paid with the sandbox, a static IP shown with its line, a payoff request approved.
 * Every data rule is held by the server tests on both stores; the whole browser suite runs on SQLite.
 * Whatever is not the point of a step is made through the API.
 */

const stamp = Date.now();
let adminToken = '';

test.beforeAll(async ({ request }) => {
  adminToken = await apiLogin(request, E2E.adminEmail, E2E.adminPassword);
});

test('a customer buys a package with the sandbox and Recharge Details shows it paid', async ({ page, context }) => {
  const token = await apiRegister(`smoke-buyer-${stamp}@e2e.test`, 'SmokePass123');
  await openWithSession(page, `/manage/center/buy?lang=en&token=${token}`);
  await expect(page.getByTestId('balance-value')).toContainText('0 B', { timeout: 60_000 });
  await settled(page);

  await page.locator('.package-card', { hasText: 'Basic 10 GB' }).getByTestId('package-buy').click();
  const checkout = page.getByTestId('checkout-method');
  await expect(checkout).toContainText('Basic 10 GB');
  await choosePayMethod(checkout, 'sandbox');
  const popupOpened = context.waitForEvent('page');
  await page.getByTestId('checkout-pay').click();
  const sandbox = await popupOpened;
  const orderNo = (await page.getByTestId('payment-order-no').innerText()).trim();
  await expect(sandbox.getByTestId('sandbox-order')).toHaveText(orderNo);
  await sandbox.getByTestId('sandbox-pay').click();
  await expect(sandbox.getByTestId('sandbox-result')).toBeVisible();
  await sandbox.close();

  await expect(page.getByTestId('payment-paid')).toContainText('10 GB has been added to your traffic balance', { timeout: 30_000 });
  await page.getByTestId('checkout-close').click();
  await expect(page.getByTestId('balance-value')).toContainText('10 GB');
  await page.getByTestId('side-menu').getByText('Recharge Details').click();
  const row = page.locator('.ant-table-row', { hasText: orderNo });
  await expect(row).toContainText('$25.00');
  await expect(row.getByTestId('order-status')).toHaveText('Paid');
});

test('a static IP the admin granted is shown on Static Residential with its line', async ({ page, request }) => {
  const token = await apiRegister(`smoke-static-${stamp}@e2e.test`, 'SmokePass123');
  const exitIp = await grantStaticIp(request, adminToken, await userId(request, token));
  await openWithSession(page, `/manage/center/staticResidential?lang=en&token=${token}`);
  await expect(page.getByTestId('static-proxies').locator('.ant-table-row', { hasText: exitIp })).toContainText('Singapore', { timeout: 60_000 });
  await expect(page.locator(`[data-testid=static-lines][data-ip="${exitIp}"]`)).toContainText('http://');
});

test('the admin approves a distributor’s payoff request from the payoff desk', async ({ page, request }) => {
  const distributorToken = await apiRegister(`smoke-distributor-${stamp}@e2e.test`, 'SmokePass123');
  const { payoffId } = await distributorWithPayoff(request, adminToken, distributorToken);

  await openWithSession(page, `/manage/distribution/manage?lang=en&tab=requests&token=${adminToken}`);
  const row = page.getByTestId('payoff-requests').locator('.ant-table-row', { hasText: TRON_ADDRESS });
  await expect(row).toHaveCount(1, { timeout: 60_000 });
  await settled(page);
  await row.getByTestId('payoff-approve').click();
  await confirmDialog(page, 'payoff-approve-confirm');
  await expect(page.locator('.ant-message')).toContainText('is now listed under “Approved”');
  // The desk starts on pending requests; the status applies as it is chosen, with no Search press.
  await choose(page, page.getByTestId('payoff-filter-status'), 'Approved');
  await expect(row.getByTestId('payoff-status')).toHaveText('Approved');

  const mine = await call<{ items: { id: number; status: string }[] }>(request, distributorToken, 'get', '/api/distribution/payoff');
  expect(mine.items.find((p) => p.id === payoffId)?.status).toBe('approved');
});

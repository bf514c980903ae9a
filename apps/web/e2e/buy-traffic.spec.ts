import { expect, test, type Download, type Page } from '@playwright/test';
import { readFileSync } from 'node:fs';
import { E2E } from './e2e-env';
import { apiLogin, apiRegister, choosePayMethod, confirmSessionSwitch, dialogOpened, openWithSession } from './helpers';

// Selling traffic end to end: a customer buys with the sandbox, then with the manual method, which an admin
// verifies. The steps share the customer and the store, so they run in order.
test.describe.configure({ mode: 'serial' });

const email = `buyer-${Date.now()}@e2e.test`;
const password = 'BuyerPass123';
const GB = 1024 ** 3;
let customerToken = '';
let adminToken = '';
let manualOrderNo = '';

async function balanceBytes(page: Page, token: string): Promise<number> {
  const res = await page.request.get('/api/traffic', { headers: { Authorization: `Bearer ${token}` } });
  expect(res.ok()).toBe(true);
  return ((await res.json()) as { data: { balanceBytes: number } }).data.balanceBytes;
}

test.beforeAll(async ({ request }) => {
  customerToken = await apiRegister(email, password);
  adminToken = await apiLogin(request, E2E.adminEmail, E2E.adminPassword);
  // The manual method needs the operator's instructions before it is offered.
  const res = await request.post('/api/manage/pay-config', {
    headers: { Authorization: `Bearer ${adminToken}` },
    data: { method: 'manual', enabled: true, settings: { instructionsEn: 'Transfer to Example Bank, reference {orderNo}.' }, secrets: {} },
  });
  expect(res.ok(), await res.text()).toBe(true);
});

test('a customer buys a package with the sandbox: the payment page opens in a new tab, the order ends paid', async ({ page, context }) => {
  await openWithSession(page, `/manage/center/buy?lang=en&token=${customerToken}`);
  await expect(page).toHaveTitle('Resi Console - Package Purchase');
  await expect(page.getByTestId('balance-value')).toContainText('0 B');

  const basic = page.locator('.package-card', { hasText: 'Basic 10 GB' });
  await expect(basic.getByTestId('package-price')).toHaveText('$25.00');
  await basic.getByTestId('package-buy').click();
  const checkout = page.getByTestId('checkout-method');
  await expect(checkout).toContainText('Basic 10 GB');
  await expect(checkout.getByTestId('pay-method-sandbox')).toContainText('Demo');
  await choosePayMethod(checkout, 'sandbox');

  const popupOpened = context.waitForEvent('page');
  await page.getByTestId('checkout-pay').click();
  const sandbox = await popupOpened;
  await expect(page.getByTestId('payment-waiting')).toBeVisible();
  const orderNo = (await page.getByTestId('payment-order-no').innerText()).trim();
  expect(orderNo).toMatch(/^D\d+/);

  await expect(sandbox.getByTestId('sandbox-order')).toHaveText(orderNo);
  await sandbox.getByTestId('sandbox-pay').click();
  await expect(sandbox.getByTestId('sandbox-result')).toBeVisible();
  await sandbox.close();

  // The checkout notices the payment by polling order-check.
  await expect(page.getByTestId('payment-paid')).toContainText('10 GB has been added to your traffic balance', { timeout: 15_000 });
  await page.getByTestId('checkout-close').click();
  await expect(page.getByTestId('balance-value')).toContainText('10 GB');
  expect(await balanceBytes(page, customerToken)).toBe(10 * GB);

  await page.getByTestId('side-menu').getByText('Recharge Details').click();
  await expect(page).toHaveURL(/\/manage\/center\/rechargeDetails$/);
  const row = page.locator('.ant-table-row', { hasText: orderNo });
  await expect(row).toContainText('Basic 10 GB');
  await expect(row).toContainText('$25.00');
  await expect(row.getByTestId('order-status')).toHaveText('Paid');
});

test('a customer orders with the manual method and sees the instructions; closing leaves the order open', async ({ page }) => {
  await openWithSession(page, `/manage/center/buy?lang=en&token=${customerToken}`);
  const starter = page.locator('.package-card', { hasText: 'Starter 1 GB' });
  await starter.getByTestId('package-buy').click();
  await choosePayMethod(page.getByTestId('checkout-method'), 'manual');
  await page.getByTestId('checkout-pay').click();
  const instructions = page.getByTestId('pay-instructions');
  await expect(instructions).toBeVisible();
  manualOrderNo = (await page.getByTestId('payment-order-no').innerText()).trim();
  await expect(instructions).toContainText(`Transfer to Example Bank, reference ${manualOrderNo}.`);
  await page.keyboard.press('Escape');
  await expect(page.getByTestId('checkout-payment')).toBeHidden();

  await page.goto('/manage/center/rechargeDetails');
  const row = page.locator('.ant-table-row', { hasText: manualOrderNo });
  await expect(row.getByTestId('order-status')).toHaveText('Awaiting payment');
  // Its payment can be shown again.
  await row.getByTestId('continue-payment-button').click();
  await expect(page.getByTestId('pay-instructions')).toContainText(manualOrderNo);
  await page.keyboard.press('Escape');
});

test('an admin verifies the pending manual order in User Recharge and the balance grows', async ({ page, context }) => {
  const before = await balanceBytes(page, customerToken);
  await openWithSession(page, `/manage/manage/order?lang=en&token=${adminToken}`);
  await expect(page).toHaveTitle('Resi Console - User Recharge');
  await page.getByTestId('filter-order-no').fill(manualOrderNo);
  await page.getByTestId('orders-search').click();
  const row = page.locator('.ant-table-row', { hasText: manualOrderNo });
  await expect(row).toContainText(email);
  await expect(row.getByTestId('order-status')).toHaveText('Awaiting payment');

  await row.getByTestId('verify-order').click();
  const confirm = page.locator('.ant-modal-confirm');
  await expect(confirm).toContainText(manualOrderNo);
  await dialogOpened(confirm);
  await confirm.getByRole('button', { name: 'Mark as paid' }).click();
  await expect(row.getByTestId('order-status')).toHaveText('Paid');
  await expect(row.getByTestId('verify-order')).toHaveCount(0);

  expect(await balanceBytes(page, customerToken)).toBe(before + GB);

  // Export CSV of the filtered list: a new tab opens the export with a one-use ticket and downloads it.
  const downloaded = new Promise<Download>((resolve) => context.on('page', (tab) => tab.on('download', resolve)));
  await page.getByTestId('orders-export').click();
  const download = await downloaded;
  expect(download.suggestedFilename()).toMatch(/^orders-.+\.csv$/);
  const csv = readFileSync(await download.path(), 'utf8');
  expect(csv).toContain(manualOrderNo);
  expect(csv).toContain(email);
  await page.goto(`/manage/center/buy?token=${customerToken}`);
  await confirmSessionSwitch(page);
  await expect(page.getByTestId('balance-value')).toContainText('11 GB');
});

import { expect, test, type APIRequestContext, type Browser, type Page } from '@playwright/test';
import { E2E } from './e2e-env';
import { apiLogin, apiRegister, choosePayMethod, dialogOpened, openWithSession, settled } from './helpers';

// Refunds end to end: a customer buys traffic with the sandbox, an admin refunds the order from the order desk
// with a note, and the customer's Recharge Details shows it refunded with the traffic gone. Serial: one store.
test.describe.configure({ mode: 'serial' });
// Two browsers (customer and admin) per step: minutes on a loaded 2-core machine. A budget for each test,
// not a wait in it. The refund dialog and a refunded order in three languages and two widths: layout.spec.ts.
test.setTimeout(600_000);

const email = `refunded-${Date.now()}@e2e.test`;
const password = 'RefundPass123';
const GB = 1024 ** 3;
let customerToken = '';
let adminToken = '';
let refundedOrderNo = '';

async function balanceBytes(request: APIRequestContext): Promise<number> {
  const res = await request.get('/api/traffic', { headers: { Authorization: `Bearer ${customerToken}` } });
  expect(res.ok()).toBe(true);
  return ((await res.json()) as { data: { balanceBytes: number } }).data.balanceBytes;
}

/** The admin works in a browser context of their own, so the customer's tab keeps the customer's session. */
async function adminPage(browser: Browser, lang: string, viewport = { width: 1440, height: 900 }): Promise<Page> {
  const context = await browser.newContext({ viewport });
  const page = await context.newPage();
  await openWithSession(page, `/manage/manage/order?lang=${lang}&token=${adminToken}`);
  // A fresh context loads every chunk again, slow on a loaded 2-core machine: a budget, not a wait.
  await expect(page.getByTestId('order-desk')).toBeVisible({ timeout: 60_000 });
  return page;
}

async function findOrder(page: Page, orderNo: string) {
  await settled(page);
  await page.getByTestId('filter-order-no').fill(orderNo);
  await page.getByTestId('orders-search').click();
  const row = page.locator('.ant-table-row', { hasText: orderNo });
  await expect(row).toHaveCount(1);
  return row;
}

test.beforeAll(async ({ request }) => {
  customerToken = await apiRegister(email, password);
  adminToken = await apiLogin(request, E2E.adminEmail, E2E.adminPassword);
});

test('a customer buys traffic with the sandbox; the admin refunds it with a note; the customer sees it refunded and the traffic gone', async ({ page, context, browser }) => {
  await openWithSession(page, `/manage/center/buy?lang=en&token=${customerToken}`);
  await expect(page).toHaveTitle('Resi Console - Package Purchase');
  // The first page of a fresh browser takes long on a loaded 2-core machine: a budget, not a wait.
  await expect(page.getByTestId('balance-value')).toContainText('0 B', { timeout: 45_000 });
  await page.locator('.package-card', { hasText: 'Basic 10 GB' }).getByTestId('package-buy').click();
  await choosePayMethod(page.getByTestId('checkout-method'), 'sandbox');
  const popupOpened = context.waitForEvent('page');
  await page.getByTestId('checkout-pay').click();
  const sandbox = await popupOpened;
  refundedOrderNo = (await page.getByTestId('payment-order-no').innerText()).trim();
  await sandbox.getByTestId('sandbox-pay').click();
  await expect(sandbox.getByTestId('sandbox-result')).toBeVisible();
  await sandbox.close();
  await expect(page.getByTestId('payment-paid')).toBeVisible();
  await page.getByTestId('checkout-close').click();
  await expect(page.getByTestId('balance-value')).toContainText('10 GB');
  expect(await balanceBytes(page.request)).toBe(10 * GB);

  const admin = await adminPage(browser, 'en');
  const row = await findOrder(admin, refundedOrderNo);
  await expect(row.getByTestId('order-status')).toHaveText('Paid');
  await row.getByTestId('refund-order').click();
  const modal = admin.getByTestId('refund-modal');
  await expect(modal.locator('.ant-modal-title')).toHaveText(`Refund order ${refundedOrderNo}`);
  await expect(modal).toContainText(email);
  await expect(modal.getByTestId('refund-take-back')).toContainText('Unused traffic of this order: 10 GB');
  // The note is required: nothing is sent without it.
  await dialogOpened(admin.locator('.ant-modal', { has: admin.getByTestId('refund-submit') }));
  await modal.getByTestId('refund-submit').click();
  await expect(modal.locator('.ant-form-item-explain-error')).toBeVisible();
  await modal.getByTestId('refund-note').fill('Refunded in the sandbox dashboard');
  await modal.getByTestId('refund-submit').click();
  await expect(modal).toBeHidden();
  await expect(row.getByTestId('order-status')).toHaveText('Refunded');
  await expect(row.getByTestId('refund-order')).toHaveCount(0);
  await admin.context().close();
  expect(await balanceBytes(page.request)).toBe(0);

  await page.getByTestId('side-menu').getByText('Recharge Details').click();
  const mine = page.locator('.ant-table-row', { hasText: refundedOrderNo });
  await expect(mine.getByTestId('order-status')).toHaveText('Refunded');
  await page.getByTestId('side-menu').getByText('Package Purchase').click();
  await expect(page.getByTestId('balance-value')).toContainText('0 B');
});

test('a refund the server refuses (a stale row in another admin’s tab) is explained in the admin’s language', async ({ browser }) => {
  const admin = await adminPage(browser, 'zh-cn');
  // Another admin's tab still showing it paid: the server answers, in Chinese, that it was refunded already.
  await admin.route((url) => url.pathname === '/api/manage/order', async (route) => {
    const res = await route.fetch();
    const body = (await res.json()) as { data: { items: { status: string }[] } };
    for (const item of body.data.items) item.status = 'paid';
    await route.fulfill({ response: res, json: body });
  });
  const row = await findOrder(admin, refundedOrderNo);
  await row.getByTestId('refund-order').click();
  await expect(admin.getByTestId('refund-preview-error')).toContainText('该订单已经退款。');
  await admin.getByTestId('refund-note').fill('再次退款');
  await expect(admin.getByTestId('refund-submit')).toBeDisabled();
  await admin.context().close();
});

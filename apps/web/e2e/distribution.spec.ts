import { expect, test, type Browser, type Page } from '@playwright/test';
import { E2E } from './e2e-env';
import { apiLogin, apiRegister, choose, choosePayMethod, confirmDialog, openWithSession, requestMailCode, settled } from './helpers';

// Distribution end to end (docs/business-rules.md#distribution): an admin makes a customer a distributor at
// 20 %; a visitor lands on the invite link with ?qd=spring, registers and buys with the sandbox; the
// distributor sees the referral and the commission, asks for it; the admin approves and marks it paid; the
// channel funnel shows the visit, the registration and the payments. The steps share one store: serial.
test.describe.configure({ mode: 'serial' });
// Three browsers (admin, distributor, visitor), a registration and payments on a loaded 2-core machine.
test.setTimeout(600_000);

const stamp = Date.now();
const distributorEmail = `distributor-${stamp}@e2e.test`;
const visitorEmail = `visitor-${stamp}@e2e.test`;
const password = 'DistPass12345';
/** A TRON address whose checksum holds (the USDT-TRC20 contract's own). */
const TRON_ADDRESS = 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t';
let adminToken = '';
let distributorToken = '';
let visitorToken = '';
let inviteLink = '';

/** A browser of its own for one person, so each keeps their own session. */
async function open(browser: Browser, address: string, viewport = { width: 1440, height: 900 }): Promise<Page> {
  const page = await (await browser.newContext({ viewport })).newPage();
  await openWithSession(page, address);
  // A fresh browser's first page: loaded within the first-paint budget before anything is read from it.
  await settled(page);
  return page;
}

test.beforeAll(async ({ request }) => {
  distributorToken = await apiRegister(distributorEmail, password);
  adminToken = await apiLogin(request, E2E.adminEmail, E2E.adminPassword);
});

test('a customer gets 403 on the distribution calls and is not shown the pages', async ({ request, page }) => {
  for (const path of ['/api/distribution/info', '/api/distribution/user', '/api/distribution/channel', '/api/distribution/payoff', '/api/distribution/commission']) {
    expect((await request.get(path, { headers: { Authorization: `Bearer ${distributorToken}` } })).status(), path).toBe(403);
  }
  await openWithSession(page, `/manage/center?lang=en&token=${distributorToken}`);
  await expect(page.getByTestId('side-menu')).toContainText('Account Home');
  await expect(page.getByTestId('side-menu')).not.toContainText('Distribution');
});

test('an admin makes the customer a distributor at 20 % and sets a payoff minimum of $5', async ({ browser }) => {
  const admin = await open(browser, `/manage/manage/user?lang=en&token=${adminToken}`);
  await admin.getByTestId('user-filter-email').fill(distributorEmail);
  await admin.getByTestId('users-search').click();
  const row = admin.locator('.ant-table-row', { hasText: distributorEmail });
  await expect(row).toHaveCount(1);
  await row.getByTestId('user-open').click();
  const drawer = admin.getByRole('dialog').filter({ has: admin.getByTestId('user-actions') });
  await drawer.getByTestId('user-distributor-switch').click();
  await drawer.getByTestId('user-commission').fill('20');
  const saved = admin.waitForResponse((r) => r.url().includes('/api/manage/user/') && r.request().method() === 'POST');
  await drawer.getByTestId('user-profile-save').click();
  expect((await saved).status()).toBe(200);
  await admin.locator('.ant-drawer-close').click();
  await expect(row.getByTestId('user-distributor')).toHaveText('Distributor 20%');

  // Settings: a 7-day hold (so the first commission is seen pending) and a minimum the test can reach.
  await admin.goto('/manage/distribution/manage?lang=en');
  await admin.getByTestId('distribution-tab-settings').click();
  const settings = admin.getByTestId('distribution-settings-form');
  await expect(settings.getByTestId('settings-hold-days')).toHaveValue('7');
  await settings.getByTestId('settings-min-payout').fill('5');
  const settingsSaved = admin.waitForResponse((r) => r.url().includes('/api/manage/distribution-settings') && r.request().method() === 'POST');
  await settings.getByTestId('settings-save').click();
  expect((await settingsSaved).status()).toBe(200);
  await admin.context().close();
});

test('the distributor finds their invite link; a visitor lands on it with ?qd=spring, registers and buys with the sandbox', async ({ browser }) => {
  const distributor = await open(browser, `/manage/distribution/manage?lang=en&token=${distributorToken}`);
  await expect(distributor.getByTestId('side-menu')).toContainText('Distribution Management');
  await expect(distributor.getByTestId('distribution-rate')).toHaveText('20%');
  inviteLink = (await distributor.getByTestId('distribution-invite-link').innerText()).trim();
  expect(inviteLink).toMatch(/\/manage\/user\/register\?invite=[A-Za-z0-9]+$/);
  await distributor.context().close();

  const visitor = await (await browser.newContext()).newPage();
  const counted = visitor.waitForResponse((r) => r.url().endsWith('/api/channel/visit'));
  await visitor.goto(`${inviteLink}&qd=spring&lang=en`);
  expect((await counted).status()).toBe(200);
  const form = visitor.getByTestId('register-form');
  await expect(form.getByLabel('Invitation code')).toHaveValue(inviteLink.split('invite=')[1]!);
  await form.getByLabel('Email', { exact: true }).fill(visitorEmail);
  await form.getByLabel('Password', { exact: true }).fill(password);
  await form.getByLabel('Confirm password').fill(password);
  await requestMailCode(visitor, 'register-form', visitorEmail);
  await visitor.getByTestId('agree').click();
  await visitor.getByTestId('register-submit').click();
  await expect(visitor).toHaveURL(/\/manage\/center$/);
  visitorToken = (await visitor.evaluate(() => sessionStorage.getItem('token'))) ?? '';
  expect(visitorToken).not.toBe('');

  await visitor.getByTestId('side-menu').getByText('Package Purchase').click();
  const basic = visitor.locator('.package-card', { hasText: 'Basic 10 GB' });
  await basic.getByTestId('package-buy').click();
  const checkout = visitor.getByTestId('checkout-method');
  await choosePayMethod(checkout, 'sandbox');
  const popupOpened = visitor.context().waitForEvent('page');
  await visitor.getByTestId('checkout-pay').click();
  const sandbox = await popupOpened;
  await sandbox.getByTestId('sandbox-pay').click();
  await expect(sandbox.getByTestId('sandbox-result')).toBeVisible();
  await expect(visitor.getByTestId('payment-paid')).toBeVisible({ timeout: 30_000 });
  await visitor.context().close();
});

test('the distributor sees the referral and the commission pending for the hold', async ({ browser }) => {
  const distributor = await open(browser, `/manage/distribution/user?lang=en&token=${distributorToken}`);
  const referral = distributor.getByTestId(`referral-row-${visitorEmail}`);
  await expect(referral).toContainText('$25.00');
  await expect(referral).toContainText('$5.00');

  await distributor.getByTestId('side-menu').getByText('Distribution Management').click();
  await expect(distributor.getByTestId('distribution-pending')).toHaveText('$5.00');
  await expect(distributor.getByTestId('distribution-available')).toHaveText('$0.00');
  await expect(distributor.getByTestId('distribution-referrals')).toHaveText('1 / 1');
  await expect(distributor.getByTestId('distribution-ledger')).toContainText('Pending');
  await expect(distributor.getByTestId('payoff-closed')).toBeVisible();
  await distributor.context().close();
});

test('with the hold set to 0 the next payment is available at once, and the distributor asks for it', async ({ browser, request }) => {
  const saved = await request.post('/api/manage/distribution-settings', {
    headers: { Authorization: `Bearer ${adminToken}` },
    data: { defaultRate: 10, holdDays: 0, minPayout: 500, payoutMethods: ['usdt-trc20', 'alipay'] },
  });
  expect(saved.ok(), await saved.text()).toBe(true);
  const visitor = { Authorization: `Bearer ${visitorToken}` };
  const goods = (await (await request.get('/api/goods', { headers: visitor })).json()) as { data: { packages: { id: number; name: { en: string } }[] } };
  const basic = goods.data.packages.find((p) => p.name.en === 'Basic 10 GB');
  const bought = await request.post('/api/buy/dynamic', { headers: visitor, data: { goodsId: basic?.id, payMethod: 'sandbox' } });
  expect(bought.ok(), await bought.text()).toBe(true);
  const orderNo = ((await bought.json()) as { data: { order: { orderNo: string } } }).data.order.orderNo;
  expect((await request.post(`/api/pay/sandbox/${orderNo}/pay`, { form: {} })).ok()).toBe(true);

  const distributor = await open(browser, `/manage/distribution/manage?lang=en&token=${distributorToken}`);
  await expect(distributor.getByTestId('distribution-available')).toHaveText('$5.00');
  await expect(distributor.getByTestId('distribution-pending')).toHaveText('$5.00');
  const form = distributor.getByTestId('payoff-form');
  await choose(distributor, form.getByTestId('payoff-method'), 'USDT (TRC20)');
  // A bad address is refused by the server in its own words, and nothing is held.
  await form.getByTestId('payoff-account').fill('TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6x');
  await form.getByTestId('payoff-amount').fill('5');
  await form.getByTestId('payoff-submit').click();
  await expect(distributor.getByTestId('payoff-error')).toBeVisible();
  await expect(distributor.getByTestId('distribution-held')).toHaveText('$0.00');

  await form.getByTestId('payoff-account').fill(TRON_ADDRESS);
  await form.getByTestId('payoff-submit').click();
  const mine = distributor.getByTestId('my-payoffs');
  await expect(mine.locator('.ant-table-row')).toHaveCount(1);
  await expect(mine.getByTestId('payoff-status')).toHaveText('Pending');
  await expect(distributor.getByTestId('distribution-held')).toHaveText('$5.00');
  await expect(distributor.getByTestId('distribution-available')).toHaveText('$0.00');
  await distributor.context().close();
});

test('the admin approves the request and marks it paid; the distributor sees it paid', async ({ browser }) => {
  const admin = await open(browser, `/manage/distribution/manage?lang=en&token=${adminToken}`);
  await admin.getByTestId('distribution-tab-requests').click();
  const row = admin.getByTestId('payoff-requests').locator('.ant-table-row', { hasText: distributorEmail });
  await expect(row).toHaveCount(1);
  await expect(row).toContainText(TRON_ADDRESS);
  await row.getByTestId('payoff-approve').click();
  await confirmDialog(admin, 'payoff-approve-confirm');
  await expect(admin.locator('.ant-message')).toContainText('is now listed under “Approved”');
  // The list starts on pending requests; the status applies as it is chosen, with no Search press.
  await choose(admin, admin.getByTestId('payoff-filter-status'), 'Approved');
  await expect(row.getByTestId('payoff-status')).toHaveText('Approved');
  await row.getByTestId('payoff-pay').click();
  const paidModal = admin.getByTestId('payoff-paid-modal');
  await paidModal.getByTestId('payoff-paid-txref').fill(`TX-${stamp}`);
  await admin.getByTestId('payoff-paid-confirm').click();
  await expect(paidModal).toBeHidden();
  await admin.context().close();

  const distributor = await open(browser, `/manage/distribution/manage?lang=en&token=${distributorToken}`);
  await expect(distributor.getByTestId('distribution-paid')).toHaveText('$5.00');
  await expect(distributor.getByTestId('distribution-held')).toHaveText('$0.00');
  const mine = distributor.getByTestId('my-payoffs');
  await expect(mine.getByTestId('payoff-status')).toHaveText('Paid');
  await expect(mine).toContainText(`TX-${stamp}`);
  await distributor.context().close();
});

test('Channel Statistics shows the visit, the registration and the payments under qd=spring', async ({ browser }) => {
  const distributor = await open(browser, `/manage/distribution/channel?lang=en&token=${distributorToken}`);
  await choose(distributor, distributor.getByTestId('channel-key'), 'qd');
  const value = distributor.getByPlaceholder('Channel value');
  await value.fill('spring');
  await value.press('Enter');
  await expect(distributor.getByTestId('channel-total-visits')).toHaveText('1');
  await expect(distributor.getByTestId('channel-total-registrations')).toHaveText('1');
  await expect(distributor.getByTestId('channel-total-paying')).toHaveText('1');
  await expect(distributor.getByTestId('channel-total-orders')).toHaveText('2');
  await expect(distributor.getByTestId('channel-total-revenue')).toHaveText('$50.00');
  const today = new Date().toISOString().slice(0, 10);
  await expect(distributor.getByTestId(`channel-row-qd-spring-${today}`)).toContainText('$50.00');
  await distributor.context().close();
});

test('refunding the order still in its hold: the dialog names the distributor’s commission, which is voided', async ({ browser, request }) => {
  const pending = await request.get('/api/distribution/commission?state=pending', { headers: { Authorization: `Bearer ${distributorToken}` } });
  const { items } = ((await pending.json()) as { data: { items: { orderNo: string }[] } }).data;
  expect(items).toHaveLength(1);
  const orderNo = items[0]!.orderNo;

  const admin = await open(browser, `/manage/manage/order?lang=en&token=${adminToken}`);
  await admin.getByTestId('filter-order-no').fill(orderNo);
  await admin.getByTestId('orders-search').click();
  const row = admin.locator('.ant-table-row', { hasText: orderNo });
  await row.getByTestId('refund-order').click();
  const modal = admin.getByTestId('refund-modal');
  await expect(modal.getByTestId('refund-commission')).toHaveText(
    `Distributor ${distributorEmail}: the commission of $5.00 on this order is still pending and is cancelled.`,
  );
  await modal.getByTestId('refund-note').fill('Returned through the sandbox');
  await modal.getByTestId('refund-submit').click();
  await expect(modal).toBeHidden();
  await admin.context().close();

  const distributor = await open(browser, `/manage/distribution/manage?lang=en&token=${distributorToken}`);
  await expect(distributor.getByTestId('distribution-pending')).toHaveText('$0.00');
  await expect(distributor.getByTestId('distribution-ledger').locator('.ant-table-row', { hasText: orderNo })).toContainText('Voided');
  await distributor.context().close();
});

import { expect, test, type Download, type Page } from '@playwright/test';
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { promisify } from 'node:util';
import { E2E } from './e2e-env';
import { apiLogin, apiRegister, confirmDialog, dialogOpened, openWithSession, settled } from './helpers';

// One customer managed end to end by the admin; the steps share them, so they run in order.
test.describe.configure({ mode: 'serial' });

const email = `managed-${Date.now()}@e2e.test`;
const password = 'ManagedPass123';
const proxyUser = `um_${Date.now().toString(36)}`;
const proxyPassword = 'ManagedProxy123';
let customerToken = '';
let adminToken = '';

test.beforeAll(async ({ request }) => {
  customerToken = await apiRegister(email, password);
  adminToken = await apiLogin(request, E2E.adminEmail, E2E.adminPassword);
  // Traffic and a proxy account, so the customer's proxy line can be seen to stop and start again.
  const me = await request.get('/api/user', { headers: { Authorization: `Bearer ${customerToken}` } });
  const userId = ((await me.json()) as { data: { id: number } }).data.id;
  const recharge = await request.post('/api/manage/recharge', { headers: { Authorization: `Bearer ${adminToken}` }, data: { userId, bytes: 1024 ** 3, validityDays: 30, note: 'e2e user management' } });
  expect(recharge.ok(), await recharge.text()).toBe(true);
  const account = await request.post('/api/proxy/dynamic', { headers: { Authorization: `Bearer ${customerToken}` }, data: { username: proxyUser, password: proxyPassword } });
  expect(account.ok(), await account.text()).toBe(true);
});

/** The HTTP status curl gets for a page fetched through the gateway with the customer's proxy line. */
async function throughProxy(): Promise<string> {
  const { stdout } = await promisify(execFile)('curl', [
    '-s',
    '-o',
    '/dev/null',
    '-w',
    '%{http_code}',
    '--max-time',
    '10',
    '-x',
    `http://${proxyUser}:${proxyPassword}@127.0.0.1:${E2E.gatewayHttpPort}`,
    `http://127.0.0.1:${E2E.originPort}/`,
  ]);
  return stdout;
}

/** The admin's User Management page filtered to the customer; answers the customer's row. */
async function findCustomer(page: Page) {
  // The page's chunk arrives after the shell's: on a loaded machine that can take a while.
  await expect(page.getByTestId('user-filter-email')).toBeVisible({ timeout: 60_000 });
  await settled(page);
  await page.getByTestId('user-filter-email').fill(email);
  await page.getByTestId('users-search').click();
  const row = page.locator('.ant-table-row', { hasText: email });
  await expect(row).toHaveCount(1);
  await expect(page.locator('[data-testid="user-list"] .ant-table-row')).toHaveCount(1);
  return row;
}

async function openDetail(page: Page) {
  const row = await findCustomer(page);
  await row.getByTestId('user-open').click();
  const drawer = page.getByRole('dialog').filter({ has: page.getByTestId('user-actions') });
  await expect(drawer).toBeVisible();
  return drawer;
}

test('an admin disables, enables, resets the password of and promotes a customer, then exports the list', async ({ page, browser, context }) => {
  // Two browsers, a login and a download on a 2-core machine shared with other runs.
  test.setTimeout(300_000);
  // The customer's own console, open in another browser.
  const customerContext = await browser.newContext();
  const customer = await customerContext.newPage();
  await openWithSession(customer, `/manage/center?lang=en&token=${customerToken}`);
  await expect(customer).toHaveURL(/\/manage\/center(\?|$)/);

  await openWithSession(page, `/manage/manage/user?lang=en&token=${adminToken}`);
  await expect(page).toHaveTitle('Resi Console - User Management');
  const drawer = await openDetail(page);
  await expect(drawer).toContainText(email);

  // Disable: the customer's session ends at once; their console goes to the login page on its next request.
  expect(await throughProxy()).toBe('200');
  await drawer.getByTestId('user-toggle-status').click();
  await expect(page.locator('.ant-modal-confirm')).toContainText(email);
  await confirmDialog(page, 'status-confirm');
  await expect(drawer.getByTestId('user-status').first()).toHaveText('Disabled');
  const refused = customer.waitForResponse((r) => r.url().includes('/api/') && r.status() === 401);
  await customer.reload();
  await refused;
  await expect(customer).toHaveURL(/\/manage\/user\/login/);
  // Their proxy line is refused by the gateway (403, the account's owner is disabled).
  await expect.poll(throughProxy, { intervals: [500] }).toBe('403');

  await drawer.getByTestId('user-toggle-status').click();
  await confirmDialog(page, 'status-confirm');
  await expect(drawer.getByTestId('user-status').first()).toHaveText('Active');
  // Enabled again: the gateway learns it on its next refresh of changed accounts.
  await expect.poll(throughProxy, { intervals: [500] }).toBe('200');

  // Reset with a generated password, shown once; the customer logs in with it.
  await drawer.getByTestId('user-reset-password').click();
  await dialogOpened(page.locator('.ant-modal', { has: page.getByTestId('reset-submit') }));
  await page.getByTestId('reset-submit').click();
  const generatedBox = page.locator('.ant-modal', { hasText: 'Generated password' });
  await dialogOpened(generatedBox);
  const generated = (await generatedBox.locator('.mono').innerText()).trim();
  expect(generated).toMatch(/^[A-Za-z0-9]{16}$/);
  // The reset is done: the only way on is to close, no Cancel as if it could be undone.
  await expect(generatedBox.getByRole('button', { name: 'Cancel' })).toHaveCount(0);
  await generatedBox.getByRole('button', { name: 'I have copied it' }).click();
  await expect(generatedBox).toBeHidden();

  const login = customer.getByTestId('login-form');
  await login.getByLabel('Email or account').fill(email);
  await login.getByLabel('Password').fill(generated);
  await login.locator('.captcha-input input').fill(E2E.captcha);
  await customer.getByTestId('login-submit').click();
  await expect(customer).toHaveURL(/\/manage\/center(\?|$)/);
  await customerContext.close();

  // A distributor at 20 %.
  await drawer.getByTestId('user-distributor-switch').click();
  await drawer.getByTestId('user-commission').fill('20');
  await drawer.getByTestId('user-remark').fill('Reseller, Hong Kong');
  const saved = page.waitForResponse((r) => r.url().includes('/api/manage/user/') && r.request().method() === 'POST');
  await drawer.getByTestId('user-profile-save').click();
  expect((await saved).status()).toBe(200);
  await expect(drawer.locator('.user-profile')).toContainText('20%');
  // The customer's sign-in with the new password shows in the drawer's login tab in words, not as the code `success`.
  await drawer.getByRole('tab', { name: 'Logins' }).click();
  await expect(drawer.getByTestId('user-logins').getByTestId('login-result').first()).toHaveText('Signed in');
  await page.locator('.ant-drawer-close').click();
  const row = page.locator('.ant-table-row', { hasText: email });
  await expect(row.getByTestId('user-distributor')).toHaveText('Distributor 20%');

  // Export of the filtered list: a new tab opens the export with a one-use ticket and downloads it.
  const downloaded = new Promise<Download>((resolve) => context.on('page', (tab) => tab.on('download', resolve)));
  await page.getByTestId('users-export').click();
  const download = await downloaded;
  expect(download.suggestedFilename()).toMatch(/^users-.+\.csv$/);
  const csv = readFileSync(await download.path(), 'utf8');
  const line = csv.split('\r\n').find((l) => l.includes(email));
  expect(line).toBeDefined();
  expect(line).toContain(',20,');
  expect(line).toContain('Reseller, Hong Kong');
});

test('bulk actions over the selected users say how many they touch; the customer is disabled and enabled again', async ({ page }) => {
  await openWithSession(page, `/manage/manage/user?lang=en&token=${adminToken}`);
  const row = await findCustomer(page);
  await expect(page.getByTestId('users-selection')).toHaveText('None selected. Matching the filters: 1');
  // Nothing chosen, nothing to disable: acting on the filtered list is its own menu.
  await expect(page.getByTestId('bulk-disable')).toBeDisabled();
  await row.locator('.ant-checkbox-input').check();
  await expect(page.getByTestId('users-selection')).toHaveText('Selected: 1');

  await page.getByTestId('bulk-disable').click();
  await expect(page.locator('.ant-modal-confirm')).toContainText('This touches the selected users (1).');
  await confirmDialog(page, 'bulk-confirm');
  await expect(page.locator('.ant-message')).toContainText('Changed: 1. Skipped: 0.');
  await expect(row.getByTestId('user-status')).toHaveText('Disabled');
  await expect.poll(throughProxy, { intervals: [500] }).toBe('403');

  // Nothing selected any more: the filtered list (this one customer) is chosen from its own menu, by name.
  await expect(page.getByTestId('users-selection')).toContainText('Matching the filters: 1');
  await expect(page.getByTestId('bulk-enable')).toBeDisabled();
  await page.getByTestId('bulk-filtered').click();
  await page.getByTestId('bulk-enable-filtered').click();
  await expect(page.locator('.ant-modal-confirm')).toContainText('This touches every user matching the filters (1).');
  await confirmDialog(page, 'bulk-confirm');
  await expect(row.getByTestId('user-status')).toHaveText('Active');
  await expect.poll(throughProxy, { intervals: [500] }).toBe('200');
});

import { expect, test, type Page } from '@playwright/test';
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { promisify } from 'node:util';
import { E2E } from './e2e-env';
import { apiLogin, apiRegister, choose, keepScreenshot, openWithSession, settled } from './helpers';
import { expectLocalizedPage } from './localized';

/** How long usage may take to reach the page: a gateway flush, then a refresh, on a loaded 2-core machine. */
const USAGE_FLUSH_BUDGET = 45_000;

// Rotating residential end to end: a customer with traffic creates a proxy account, copies curl lines from
// Get Proxy (HTTP, SOCKS5, with a country), those exact lines fetch the local origin through the real gateway,
// and the usage chart shows it.
test.describe.configure({ mode: 'serial' });

const run = promisify(execFile);
const email = `proxies-${Date.now()}@e2e.test`;
const password = 'ProxyPass123';
const proxyUser = `e2e_${Date.now().toString(36)}`;
const GB = 1024 ** 3;
let customerToken = '';
let curlLine = '';

async function usageTotal(page: Page): Promise<string> {
  return (await page.getByTestId('usage-total').locator('.ant-statistic-content').innerText()).trim();
}

/** Runs a curl line exactly as Get Proxy shows it, split into curl's arguments; -f fails on a proxy error status. */
async function runCurlLine(line: string): Promise<string> {
  const [command, ...args] = line.split(' ');
  expect(command).toBe('curl');
  const { stdout } = await run('curl', ['-sSf', '--max-time', '10', ...args]);
  return stdout;
}

test.beforeAll(async ({ request }) => {
  customerToken = await apiRegister(email, password);
  const me = await request.get('/api/user', { headers: { Authorization: `Bearer ${customerToken}` } });
  const userId = ((await me.json()) as { data: { id: number } }).data.id;
  const adminToken = await apiLogin(request, E2E.adminEmail, E2E.adminPassword);
  const res = await request.post('/api/manage/recharge', {
    headers: { Authorization: `Bearer ${adminToken}` },
    data: { userId, bytes: 3 * GB, validityDays: 30, note: 'e2e proxies' },
  });
  expect(res.ok(), await res.text()).toBe(true);
});

test('without a proxy account, Get Proxy leads to Rotating Residential, where the customer creates one', async ({ page }) => {
  await openWithSession(page, `/manage/center/proxy?lang=en&token=${customerToken}`);
  await expect(page).toHaveTitle('Resi Console - Get Proxy');
  await expect(page.getByTestId('no-accounts')).toContainText('You have no proxy account yet');
  await page.getByTestId('no-accounts-create').click();
  await expect(page).toHaveURL(/\/manage\/center\/rotatingResidential$/);
  await expect(page.getByTestId('balance-value')).toContainText('3 GB');
  // The traffic order records (issue 4): the admin's recharge is listed with its status and size.
  const order = page.getByTestId('traffic-orders').locator('.ant-table-row');
  await expect(order).toHaveCount(1);
  await expect(order).toContainText('Manual recharge');
  await expect(order).toContainText('3 GB');
  await expect(order.getByTestId('order-status')).toHaveText('Paid');

  await page.getByTestId('add-account').click();
  // The contract's username rule is checked before anything is sent.
  await page.getByTestId('account-username').fill('No!');
  await page.getByTestId('account-submit').click();
  await expect(page.locator('.ant-form-item-explain-error').first()).toContainText('4 to 32 lower-case letters');
  await page.getByTestId('account-username').fill(proxyUser);
  await page.getByTestId('account-limit').fill('1.5');
  await page.getByTestId('account-remark').fill('e2e');
  await page.getByTestId('account-submit').click();

  const row = page.locator('.ant-table-row', { hasText: proxyUser });
  await expect(row).toContainText('0 B of 1.5 GB');
  await expect(row).toContainText('e2e');
  await expect(row.getByTestId('account-status')).toHaveAttribute('aria-checked', 'true');
});

test('Get Proxy builds a curl line that works through the gateway, and the usage chart shows the traffic', async ({ page }) => {
  await openWithSession(page, `/manage/center/proxy?lang=en&token=${customerToken}`);
  await expect(page.getByTestId('settings-account')).toContainText(proxyUser);
  await settled(page);
  await choose(page, page.getByTestId('settings-format'), 'curl command');
  await page.getByTestId('settings-count').fill('2');
  const lines = page.getByTestId('proxy-lines');
  await expect(lines).toContainText(`curl -x http://${proxyUser}:`);
  const shown = (await lines.innerText()).trim().split('\n');
  expect(shown).toHaveLength(2);
  curlLine = shown[0] ?? '';
  expect(curlLine).toMatch(new RegExp(`^curl -x http://${proxyUser}:[A-Za-z0-9]+@[^:]+:${E2E.gatewayHttpPort} http://127\\.0\\.0\\.1:${E2E.originPort}/$`));

  // The line exactly as shown.
  expect(await runCurlLine(curlLine)).toContain('resi e2e origin');

  // Usage is flushed to the store every few seconds: refresh until it shows up (≤ 10 s on a quiet machine;
  // the flush and the refresh both wait their turn on a loaded one, so the poll has USAGE_FLUSH_BUDGET).
  await page.goto('/manage/center/rotatingResidential');
  await expect(page.getByTestId('usage-total')).toBeVisible();
  await expect
    .poll(
      async () => {
        await page.getByTestId('usage-refresh').click();
        return usageTotal(page);
      },
      { intervals: [1_000], timeout: USAGE_FLUSH_BUDGET },
    )
    .not.toBe('0 B');
  await expect(page.getByTestId('usage-chart').locator('.usage-chart__bar').first()).toBeVisible();
  await expect(page.getByTestId('usage-by-account')).toContainText(proxyUser);
  await expect(page.locator('.ant-table-row', { hasText: proxyUser }).getByTestId('account-usage')).not.toContainText('0 B of');
});

test('a SOCKS5 line from Get Proxy works with curl, also with a country chosen on the page', async ({ page }) => {
  await openWithSession(page, `/manage/center/proxy?lang=en&token=${customerToken}`);
  await expect(page.getByTestId('settings-account')).toContainText(proxyUser);
  await settled(page);
  await page.getByTestId('settings-protocol').getByText('SOCKS5', { exact: true }).click();
  await choose(page, page.getByTestId('settings-format'), 'curl command');
  await page.getByTestId('settings-count').fill('1');
  const lines = page.getByTestId('proxy-lines');
  await expect(lines).toContainText(`curl -x socks5h://${proxyUser}:`);
  const rotating = (await lines.innerText()).trim();
  expect(rotating).toMatch(new RegExp(`^curl -x socks5h://${proxyUser}:[A-Za-z0-9]+@[^:]+:${E2E.gatewaySocksPort} http://127\\.0\\.0\\.1:${E2E.originPort}/$`));
  expect(await runCurlLine(rotating)).toContain('resi e2e origin');

  // A country picked in the region cascader goes into the username, and the demo's direct egress serves it.
  await page.getByTestId('settings-region').click();
  await page.locator('.ant-cascader-menu-item', { hasText: 'United States' }).click();
  await page.keyboard.press('Escape');
  await expect(lines).toContainText(`curl -x socks5h://${proxyUser}-country-us:`);
  const inUs = (await lines.innerText()).trim();
  expect(inUs).toMatch(new RegExp(`^curl -x socks5h://${proxyUser}-country-us:[A-Za-z0-9]+@[^:]+:${E2E.gatewaySocksPort} http://127\\.0\\.0\\.1:${E2E.originPort}/$`));
  expect(await runCurlLine(inUs)).toContain('resi e2e origin');

  // The usage by country counts those bytes under the United States (flushed within a few seconds).
  await page.goto('/manage/center/rotatingResidential');
  await expect
    .poll(
      async () => {
        await page.getByTestId('usage-refresh').click();
        return page.getByTestId('usage-by-country').innerText();
      },
      { intervals: [1_000], timeout: USAGE_FLUSH_BUDGET },
    )
    .toContain('United States');
});

test('Get Proxy: rotating copies say why, sticky lines download exactly as shown, states are named', async ({ page }) => {
  await openWithSession(page, `/manage/center/proxy?lang=en&token=${customerToken}`);
  await expect(page.getByTestId('settings-account')).toContainText(proxyUser);
  await settled(page);
  // Every setting is labelled: reachable by its label, as a screen reader would.
  for (const label of ['Proxy account', 'Location', 'Number of lines', 'Line format']) await expect(page.getByLabel(label, { exact: true })).toBeVisible();
  await page.getByLabel('Number of lines', { exact: true }).fill('3');
  await expect(page.getByTestId('rotating-note')).toContainText('every connection through any of them gets a new exit IP');

  await page.getByTestId('settings-mode').getByText('Sticky', { exact: true }).click();
  const lines = page.getByTestId('proxy-lines');
  await expect(lines).toContainText('-session-');
  await expect(page.getByTestId('rotating-note')).toHaveCount(0);
  const shown = (await lines.innerText()).trim();
  expect(shown.split('\n')).toHaveLength(3);
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('lines-download').click()]);
  expect(readFileSync((await download.path())!, 'utf8').trim()).toBe(shown);

  // A state is named, not shown as its code.
  await page.getByTestId('settings-region').click();
  await page.locator('.ant-cascader-menu-item', { hasText: 'United States' }).click();
  await expect(page.locator('.ant-cascader-menu-item', { hasText: 'New York State' })).toBeVisible();
  await expect(page.locator('.ant-cascader-menu-item', { hasText: /^ny$/ })).toHaveCount(0);
  await page.keyboard.press('Escape');
});

test('Usage Record lists the account’s traffic by day and by hour, and downloads it as CSV', async ({ page }) => {
  await openWithSession(page, `/manage/center/usageRecord?lang=en&token=${customerToken}`);
  await expect(page).toHaveTitle('Resi Console - Usage Record');
  const table = page.getByTestId('usage-record');
  // The curl lines above: without a country, and in the United States; both flushed by now.
  const usRow = table.locator('.ant-table-row', { hasText: proxyUser }).filter({ hasText: 'United States' });
  await expect(usRow).toHaveCount(1);
  await expect(table.locator('.ant-table-row', { hasText: proxyUser }).filter({ hasText: 'Any country' })).toHaveCount(1);
  const downloaded = usRow.locator('td').nth(4);
  await expect(downloaded).toContainText(/KB|MB/);
  await expect(page.getByTestId('usage-record-total-total').locator('.ant-statistic-content')).not.toHaveText('0 B');
  await expectLocalizedPage(page, { title: 'Usage Record', heading: 'Usage Record' });
  await keepScreenshot(page, 'usage-record-en');

  await page.getByTestId('usage-record-granularity').getByText('By hour').click();
  await expect(table.locator('.ant-table-row', { hasText: proxyUser }).first()).toContainText(/\d{1,2}:00/);

  const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('usage-record-export').click()]);
  expect(download.suggestedFilename()).toMatch(/^usage-\d{4}-\d\d-\d\d-\d{4}-\d\d-\d\d\.csv$/);
  const csv = readFileSync((await download.path())!, 'utf8');
  expect(csv.startsWith('\uFEFFTime (UTC),Proxy account,Static IP,Country,Upload (bytes),Download (bytes),Total (bytes)\r\n')).toBe(true);
  expect(csv).toMatch(new RegExp(`T\\d\\d:00:00\\.000Z,${proxyUser},,US,\\d+,[1-9]\\d*,\\d+\\r\\n`));
});

import { expect, test, type Download, type Page } from '@playwright/test';
import { readFileSync } from 'node:fs';
import { E2E } from './e2e-env';
import { apiLogin, apiRegister, choosePayMethod, keepScreenshot, openWithSession, settled } from './helpers';
import { expectLocalizedPage } from './localized';

// Statistics for admins: a customer pays with the sandbox, then the admin finds the order and its revenue on
// Statistics and on Account Home, and exports the figures. The steps share the store, so they run in order.
test.describe.configure({ mode: 'serial' });

const email = `stats-buyer-${Date.now()}@e2e.test`;
const password = 'StatsPass123';
let customerToken = '';
let adminToken = '';

interface Report {
  totals: { orders: number; revenue: number };
  summary: { today: { current: { orders: number; revenue: number } } };
}

/**
 * The report for the page's own default range, the last 30 UTC days: a run that crosses midnight has
 * orders of yesterday too, which the page counts and a report of today alone did not.
 */
async function report(page: Page): Promise<Report> {
  const day = (ago: number) => new Date(Date.now() - ago * 86_400_000).toISOString().slice(0, 10);
  const res = await page.request.get(`/api/manage/statistics?from=${day(29)}&to=${day(0)}`, { headers: { Authorization: `Bearer ${adminToken}` } });
  expect(res.ok()).toBe(true);
  return ((await res.json()) as { data: Report }).data;
}

const money = (minor: number) => `$${(minor / 100).toLocaleString('en-US', { minimumFractionDigits: 2 })}`;

const TEXTS = { en: { title: 'Statistics', heading: 'Figures per period' } } as const;

test.beforeAll(async ({ request }) => {
  customerToken = await apiRegister(email, password);
  adminToken = await apiLogin(request, E2E.adminEmail, E2E.adminPassword);
});

test('a customer buys a package with the sandbox', async ({ page, context }) => {
  await openWithSession(page, `/manage/center/buy?lang=en&token=${customerToken}`);
  const basic = page.locator('.package-card', { hasText: 'Basic 10 GB' });
  await basic.getByTestId('package-buy').click();
  await choosePayMethod(page.getByTestId('checkout-method'), 'sandbox');
  const popupOpened = context.waitForEvent('page');
  await page.getByTestId('checkout-pay').click();
  const sandbox = await popupOpened;
  await sandbox.getByTestId('sandbox-pay').click();
  await expect(sandbox.getByTestId('sandbox-result')).toBeVisible();
  await sandbox.close();
  await expect(page.getByTestId('payment-paid')).toBeVisible({ timeout: 15_000 });
});

test('the admin sees the order and its revenue on Statistics and Account Home, and exports the figures', async ({ page, context }) => {
  const figures = await report(page);
  expect(figures.totals.orders).toBeGreaterThanOrEqual(1);

  await openWithSession(page, `/manage/manage/statistics?lang=en&token=${adminToken}`);
  // A 90-day report on a loaded machine can take a while: the table is there once it has answered.
  await expect(page.getByTestId('statistics-periods')).toBeVisible({ timeout: 30_000 });
  await expectLocalizedPage(page, TEXTS.en);
  const top = page.getByTestId('statistics-top-spend').locator('.ant-table-row', { hasText: email });
  await expect(top).toContainText('$25.00');
  await expect(page.getByTestId('statistics-by-method')).toContainText('Sandbox');
  // Margin is there under its own heading; its figures move with whatever traffic other specs carry meanwhile.
  await expect(page.locator('.ant-card', { has: page.getByTestId('statistics-margin') }).locator('.ant-card-head-title')).toHaveText('Margin');
  await expect(page.getByTestId('statistics-total-orders')).toHaveText(String((await report(page)).totals.orders));
  await expect(page.getByTestId('statistics-summary-today-revenue')).toHaveText(money((await report(page)).summary.today.current.revenue));

  const downloaded = new Promise<Download>((resolve) => context.on('page', (tab) => tab.on('download', resolve)));
  await page.getByTestId('statistics-export').click();
  const download = await downloaded;
  expect(download.suggestedFilename()).toMatch(/^statistics-\d{8}-\d{6}\.csv$/);
  const csv = readFileSync(await download.path());
  expect([...csv.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
  const text = csv.toString('utf8');
  expect(text).toContain('Period (UTC),Registrations,Paying users');
  expect(text).toMatch(/\r\nTotal,\d+,\d+,\d+,\d+,\d+\.\d\d,/);

  await page.goto('/manage/center');
  const summary = page.getByTestId('admin-summary');
  await expect(summary.getByTestId('statistics-summary-today-revenue')).toHaveText(money((await report(page)).summary.today.current.revenue));
  await expect(summary.getByTestId('statistics-summary-today-orders')).toHaveText(String((await report(page)).summary.today.current.orders));
  await keepScreenshot(page, 'statistics-center-en');
});

test('a customer has no statistics summary on Account Home', async ({ page }) => {
  await openWithSession(page, `/manage/center?lang=en&token=${customerToken}`);
  await expect(page.getByTestId('welcome-email')).toHaveText(email);
  await settled(page);
  await expect(page.getByTestId('admin-summary')).toHaveCount(0);
});

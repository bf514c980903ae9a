import { expect, test, type Download, type Page } from '@playwright/test';
import { readFileSync } from 'node:fs';
import { E2E } from './e2e-env';
import { apiLogin, apiRegister, choose, openWithSession, settled } from './helpers';
import { expectLocalizedPage } from './localized';

const PASSWORD = 'LoginsPass123';
const TEXTS = { en: { title: 'Login Analysis', heading: 'Attempts per day' } } as const;

/** A sign-in that fails (wrong password or unknown account), through the API like a script would. */
async function failedLogin(page: Page, account: string): Promise<void> {
  const captcha = (await (await page.request.get('/api/captcha')).json()) as { data: { id: string } };
  const res = await page.request.post('/api/login', { data: { account, password: 'Wrong-pass-1', captchaId: captcha.data.id, captcha: E2E.captcha } });
  expect(res.status()).toBe(400);
}

test('an admin reads the failed sign-ins, sees the failing IP, filters by result and exports them', async ({ page, context, request }) => {
  // Seven page loads (the flow, then three languages at two widths): each took 10-20 s under a load of 20-30.
  test.setTimeout(300_000);
  const email = `logins-${Date.now()}@e2e.test`;
  const ghost = `ghost-${Date.now()}@e2e.test`;
  await apiRegister(email, PASSWORD);
  // Three failures from this machine (below the lockout of five per account and twenty per IP), then the right password.
  await failedLogin(page, email);
  await failedLogin(page, email);
  await failedLogin(page, ghost);
  await apiLogin(request, email, PASSWORD);

  const token = await apiLogin(request, E2E.adminEmail, E2E.adminPassword);
  await openWithSession(page, `/manage/manage/log?lang=en&token=${token}`);
  // The first open of a lazy page took over 20 s on a loaded 2-core machine: a longer wait for this one condition.
  await expect(page.getByTestId('login-analysis')).toBeVisible({ timeout: 60_000 });
  await expectLocalizedPage(page, TEXTS.en);
  await settled(page);

  // The failing IP leads its card; the chart and the list show today's attempts.
  await expect(page.getByTestId('top-failing-ips').locator('.ant-table-row').first()).toContainText('127.0.0.1');
  await expect(page.getByTestId('login-chart')).toBeVisible();
  const table = page.getByTestId('login-table');
  await page.getByTestId('filter-email').fill(email);
  await page.getByTestId('logins-search').click();
  const rows = table.locator('.ant-table-row');
  await expect(rows).toHaveCount(3);
  await expect(rows.nth(0).getByTestId('login-result')).toHaveText('Signed in');
  await expect(rows.nth(1)).toContainText('127.0.0.1');
  await expect(rows.nth(1).getByTestId('login-result')).toHaveText('Wrong password');

  await choose(page, page.getByTestId('filter-result'), 'Wrong password');
  await page.getByTestId('logins-search').click();
  await expect(rows).toHaveCount(2);
  for (const row of await rows.all()) await expect(row.getByTestId('login-result')).toHaveText('Wrong password');
  await expect(page.getByTestId('login-totals')).toContainText('2 attempts, 2 failed');

  // The account typed for a user that does not exist is found by what was typed.
  await page.getByTestId('filter-email').fill(ghost);
  await choose(page, page.getByTestId('filter-result'), 'Unknown account');
  await page.getByTestId('logins-search').click();
  await expect(rows).toHaveCount(1);
  await expect(rows.first()).toContainText(ghost);

  await page.getByTestId('filter-email').fill(email);
  await choose(page, page.getByTestId('filter-result'), 'Wrong password');
  await page.getByTestId('logins-search').click();
  await expect(rows).toHaveCount(2);
  const downloaded = new Promise<Download>((resolve) => context.on('page', (tab) => tab.on('download', resolve)));
  await page.getByTestId('logins-export').click();
  const download = await downloaded;
  expect(download.suggestedFilename()).toMatch(/^logins-\d{8}-\d{6}\.csv$/);
  const file = readFileSync(await download.path());
  expect([...file.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
  const lines = file.subarray(3).toString('utf8').trim().split('\r\n');
  expect(lines[0]).toBe('Time (UTC),User ID,User email,Account as typed,IP,User agent,Result,Result (code)');
  expect(lines).toHaveLength(3);
  for (const line of lines.slice(1)) expect(line).toMatch(new RegExp(`,${email.replace(/[.]/g, '\\.')},${email.replace(/[.]/g, '\\.')},127\\.0\\.0\\.1,.*,Wrong password,bad-password$`));
});

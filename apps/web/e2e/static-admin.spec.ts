import { expect, test, type Locator } from '@playwright/test';
import { E2E } from './e2e-env';
import { apiLogin, apiRegister, choose, dialogOpened, keepScreenshot, openWithSession } from './helpers';
import { expectLocalizedPage } from './localized';

// Fresh store per run (e2e-server.mjs): these documentation addresses (RFC 5737) are new to it.
const KEPT = '198.51.100.11';
const RETIRED = '198.51.100.12';
const GRANTED = '198.51.100.21';
const LINES = [`http://alice:secret-one@${KEPT}:8000`, `${RETIRED}:8001:bob:pw:with:colons`, 'not a proxy line'].join('\n');

/** A row's cells, as the table shows them. */
async function cells(row: Locator): Promise<string[]> {
  return (await row.locator('td').allInnerTexts()).map((text) => text.trim());
}

test('an admin imports static IPs, reads each line’s outcome and the board, and retires one with a reason', async ({ page, request }) => {
  const token = await apiLogin(request, E2E.adminEmail, E2E.adminPassword);
  await openWithSession(page, `/manage/manage/staticInventory?lang=en&token=${token}`);
  await expect(page).toHaveTitle('Resi Console - Static Inventory');

  const importCard = page.getByTestId('static-import');
  await choose(page, importCard.getByTestId('import-region'), 'Tokyo');
  await importCard.getByTestId('import-isp').fill('E2E Telecom');
  await importCard.getByTestId('import-lines').fill(LINES);
  const imported = page.waitForResponse((r) => r.url().endsWith('/api/manage/static-inventory') && r.request().method() === 'POST');
  await importCard.getByTestId('import-submit').click();
  expect((await imported).status()).toBe(200);

  const results = page.getByTestId('import-results');
  const rows = results.locator('tr.ant-table-row');
  await expect(rows).toHaveCount(3);
  expect(await cells(rows.nth(0))).toEqual(['1', 'Created', KEPT, '—']);
  expect(await cells(rows.nth(1))).toEqual(['2', 'Created', RETIRED, '—']);
  const invalid = await cells(rows.nth(2));
  expect(invalid.slice(0, 3)).toEqual(['3', 'Invalid', '—']);
  expect(invalid[3]).not.toBe('—');
  await expect(results.getByTestId('import-summary')).toContainText('2');

  // The board: Tokyo, rows for all lines, two free.
  const boardRow = page.getByTestId('static-board').locator('tr.ant-table-row', { hasText: 'Tokyo' });
  await expect(boardRow).toHaveCount(1);
  await expect.poll(() => cells(boardRow)).toEqual(['Tokyo', 'All lines', '2', '0', '0', '0', '0', '0']);

  // The list answers the upstream masked: the password never reaches the page.
  const list = page.getByTestId('static-inventory');
  const kept = list.locator('tr.ant-table-row', { hasText: KEPT });
  await expect(kept).toContainText(`http://alice:••••@${KEPT}:8000`);
  await expect(kept).toContainText('E2E Telecom');
  await expect(kept).toContainText('Free');
  // The taken lines left the paste box with their passwords; the invalid one stays to be fixed.
  await expect(importCard.getByTestId('import-lines')).toHaveValue('not a proxy line');
  await expect(page.locator('body')).not.toContainText('secret-one');

  const target = list.locator('tr.ant-table-row', { hasText: RETIRED });
  await target.getByTestId('retire-row').click();
  await page.getByTestId('retire-reason').fill('Blocked by the upstream');
  await page.getByTestId('retire-confirm').click();
  await expect(target).toContainText('Retired');
  await expect(target.getByTestId('retire-row')).toBeDisabled();
  await expect.poll(() => cells(boardRow)).toEqual(['Tokyo', 'All lines', '1', '0', '0', '0', '0', '1']);

  await target.getByTestId('history-row').click();
  const history = page.getByTestId('history-event');
  await expect(history).toHaveCount(2);
  await expect(history.nth(0)).toContainText('Retired');
  await expect(history.nth(0)).toContainText('Reason: Blocked by the upstream');
  await expect(history.nth(1)).toContainText('Imported');
  await page.locator('.ant-drawer-close').click();
  await expect(history).toHaveCount(0);
  await keepScreenshot(page, 'static-inventory-en');

  await page.goto(`/manage/manage/staticInventory?lang=zh-cn`);
  await expect(page.getByTestId('static-inventory').locator('tr.ant-table-row', { hasText: RETIRED })).toContainText('已停用');
  await expect(page.getByTestId('static-board').locator('tr.ant-table-row', { hasText: '东京' })).toContainText('全部业务线');
  await expectLocalizedPage(page, { title: '静态IP库存', heading: '导入静态IP' });
  await keepScreenshot(page, 'static-inventory-zh-cn');
});

test('an admin grants a static IP to a customer from the order desk', async ({ page, request }) => {
  const email = `static-grant-${Date.now()}@e2e.test`;
  await apiRegister(email, 'Customer123');
  const token = await apiLogin(request, E2E.adminEmail, E2E.adminPassword);
  const headers = { Authorization: `Bearer ${token}` };
  const regions = (await (await request.get('/api/manage/static-region', { headers })).json()) as { data: { items: { id: number; name: { en: string } }[] } };
  const singapore = regions.data.items.find((r) => r.name.en === 'Singapore');
  const stocked = await request.post('/api/manage/static-inventory', { headers, data: { regionId: singapore?.id, lines: `http://carol:pw@${GRANTED}:8000` } });
  expect(stocked.ok(), await stocked.text()).toBe(true);
  await openWithSession(page, `/manage/manage/order?lang=en&token=${token}`);

  await page.getByTestId('open-static-grant').click();
  const modal = page.getByTestId('static-grant-modal');
  await dialogOpened(page.locator('.ant-modal', { has: page.getByTestId('grant-submit') }));
  await modal.getByTestId('recharge-user').click();
  await modal.getByTestId('recharge-user').locator('input').fill(email);
  await page.locator('.ant-select-dropdown:visible .ant-select-item-option', { hasText: email }).click();
  await choose(page, modal.getByTestId('grant-region'), 'Singapore');
  await choose(page, modal.getByTestId('grant-business'), 'E-commerce');
  await modal.getByTestId('grant-note').fill('E2E goodwill');
  await expect(page.locator('.ant-select-dropdown:visible')).toHaveCount(0);
  await keepScreenshot(page, 'static-grant-en');
  await modal.getByTestId('grant-submit').click();
  await expect(modal).toBeHidden();
  await expect(page.getByTestId('order-desk').locator('tr.ant-table-row', { hasText: email })).toBeVisible();

  // Singapore's only IP is now the customer's.
  await page.goto(`/manage/manage/staticInventory?lang=en`);
  await expect(page.getByTestId('static-inventory').locator('tr.ant-table-row', { hasText: GRANTED })).toContainText('Allocated');
});

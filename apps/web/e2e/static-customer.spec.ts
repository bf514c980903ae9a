import { expect, test, type Download, type Page } from '@playwright/test';
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { promisify } from 'node:util';
import { E2E } from './e2e-env';
import { apiLogin, apiRegister, choose, choosePayMethod, confirmDialog, dialogOpened, keepScreenshot, openWithSession } from './helpers';

// Static residential IPs as a customer uses them: bought and paid with the sandbox, listed with their
// lines, one renewed through the checkout, the other replaced. The steps share the customer and the store.
test.describe.configure({ mode: 'serial' });

const email = `static-${Date.now()}@e2e.test`;
const password = 'StaticPass123';
// Exit addresses as the operator's provider names them (documentation addresses, RFC 5737); each row's
// upstream is the local proxy standing in for the provider, so a line shown on the page really carries.
const IPS = ['203.0.113.210', '203.0.113.211', '203.0.113.212'];
const ORIGIN = `http://127.0.0.1:${E2E.originPort}/`;
let token = '';
let adminToken = '';
const bought: string[] = [];

async function call(page: Page, auth: string, method: 'get' | 'post', path: string, data?: unknown): Promise<unknown> {
  const res = await page.request[method](path, { headers: { Authorization: `Bearer ${auth}` }, data });
  expect(res.ok(), `${method} ${path}: ${await res.text()}`).toBe(true);
  return ((await res.json()) as { data: unknown }).data;
}

const run = promisify(execFile);

const rowOf = (page: Page, ip: string) => page.getByTestId('static-proxies').locator('.ant-table-row', { hasText: ip });

test.beforeAll(async ({ request }) => {
  token = await apiRegister(email, password);
  adminToken = await apiLogin(request, E2E.adminEmail, E2E.adminPassword);
});

test('a customer buys 2 static IPs on Package Purchase, pays with the sandbox and sees them with their lines', async ({ page, context }) => {
  const name = (en: string, zhCn: string, zh: string) => ({ en, 'zh-cn': zhCn, zh });
  const region = (await call(page, adminToken, 'post', '/api/manage/static-region', { country: 'NL', city: 'amsterdam', name: name('Amsterdam', '阿姆斯特丹', '阿姆斯特丹') })) as { id: number };
  const business = (await call(page, adminToken, 'post', '/api/manage/business', { code: `shop${Date.now().toString(36)}`, name: name('Online shops', '电商', '電商') })) as { id: number };
  await call(page, adminToken, 'post', '/api/manage/static-price', { regionId: region.id, businessId: business.id, days: 30, price: 500 });
  const imported = (await call(page, adminToken, 'post', '/api/manage/static-inventory', {
    regionId: region.id,
    businessIds: [business.id],
    lines: IPS.map((ip) => `http://127.0.0.1:${E2E.upstreamPort} ${ip}`).join('\n'),
  })) as { created: number };
  expect(imported.created).toBe(3);

  // Bought on Package Purchase's static tab, through the same checkout as traffic.
  await openWithSession(page, `/manage/center/buy?lang=en&token=${token}`);
  await page.getByRole('tab', { name: 'Static IPs' }).click();
  const offer = page.getByTestId('static-purchase');
  await offer.getByText('Amsterdam').click();
  await expect(offer.getByTestId('static-stock')).toHaveText('3 left');
  await offer.getByTestId('static-quantity').fill('2');
  await expect(offer.getByTestId('static-total')).toHaveText('$10.00');
  await keepScreenshot(page, 'static-buy-en');
  await offer.getByTestId('static-buy').click();
  const checkout = page.getByTestId('checkout-method');
  await expect(checkout).toContainText('Online shops · 2 IP · 30 days');
  await choosePayMethod(checkout, 'sandbox');
  const popup = context.waitForEvent('page');
  await page.getByTestId('checkout-pay').click();
  const sandbox = await popup;
  const orderNo = (await page.getByTestId('payment-order-no').innerText()).trim();
  await expect(sandbox.getByTestId('sandbox-order')).toHaveText(orderNo);
  await sandbox.getByTestId('sandbox-pay').click();
  await expect(sandbox.getByTestId('sandbox-result')).toBeVisible();
  await sandbox.close();
  await expect(page.getByTestId('payment-paid')).toContainText('Your static IPs are ready', { timeout: 15_000 });
  await page.getByRole('button', { name: 'Static Residential' }).click();
  await expect(page).toHaveURL(/\/manage\/center\/staticResidential$/);

  const rows = page.getByTestId('static-proxies').locator('.ant-table-row');
  await expect(rows).toHaveCount(2);
  for (const row of await rows.all()) {
    const ip = (await row.getByTestId('static-ip').innerText()).trim();
    expect(IPS).toContain(ip);
    bought.push(ip);
    await expect(row).toContainText('Amsterdam');
    await expect(row).toContainText('Netherlands');
    await expect(row).toContainText('Online shops');
    await expect(row.getByTestId('static-status')).toHaveText('Active');
    await expect(row.getByTestId('static-time-left')).toHaveText('in 29 days');
    const lines = page.locator(`[data-testid=static-lines][data-ip="${ip}"]`);
    await expect(lines).toContainText(/http:\/\/s[a-z0-9]{9}:\S+@\S+:\d+/);
    await expect(lines).toContainText(/socks5h:\/\/s[a-z0-9]{9}:\S+@\S+:\d+/);
  }
  await expect(page.getByTestId('static-orders').locator('.ant-table-row', { hasText: orderNo })).toContainText('Paid');

  // A line as shown carries traffic, and leaves through the IP's own upstream (its answers carry the upstream's mark).
  const shown = await page.locator(`[data-testid=static-lines][data-ip="${bought[0]}"]`).innerText();
  const viaHttp = await run('curl', ['-sSfi', '--max-time', '10', '-x', /http:\/\/\S+/.exec(shown)![0], ORIGIN]);
  expect(viaHttp.stdout).toContain(`x-e2e-upstream: ${E2E.upstreamPort}`);
  expect(viaHttp.stdout).toContain('resi e2e origin');
  const viaSocks = await run('curl', ['-sSf', '--max-time', '10', '-x', /socks5h:\/\/\S+/.exec(shown)![0], ORIGIN]);
  expect(viaSocks.stdout).toContain('resi e2e origin');

  // The export holds each IP's two lines, as on screen.
  const download = page.waitForEvent('download');
  await page.getByTestId('static-export').click();
  const file = await download;
  expect(file.suggestedFilename()).toBe('static-proxies.txt');
  const lines = readFileSync(await (file as Download).path(), 'utf8').trim().split('\n');
  expect(lines).toHaveLength(4);
  const screen = await page.getByTestId('static-lines').allInnerTexts();
  for (const line of lines) expect(screen.join('\n')).toContain(line);
});

test('the customer renews one IP through the checkout: its expiry moves 30 days on', async ({ page, context }) => {
  await openWithSession(page, `/manage/center/staticResidential?lang=en&token=${token}`);
  const row = rowOf(page, bought[0]!);
  await row.getByTestId('static-renew-one').click();
  const choice = page.getByTestId('renew-choice');
  await expect(choice).toContainText(bought[0]!);
  await expect(page.getByTestId('renew-total')).toHaveText('$5.00');
  await choosePayMethod(choice, 'sandbox');

  const popup = context.waitForEvent('page');
  await page.getByTestId('renew-pay').click();
  const sandbox = await popup;
  await expect(page.getByTestId('payment-waiting')).toBeVisible();
  await sandbox.getByTestId('sandbox-pay').click();
  await expect(sandbox.getByTestId('sandbox-result')).toBeVisible();
  await sandbox.close();

  await expect(page.getByTestId('payment-paid')).toContainText('Your static IPs have been renewed', { timeout: 15_000 });
  await page.getByTestId('checkout-close').click();
  await expect(row.getByTestId('static-time-left')).toHaveText('in 59 days');
  await expect(rowOf(page, bought[1]!).getByTestId('static-time-left')).toHaveText('in 29 days');
  await expect(page.getByTestId('static-orders').locator('.ant-table-row')).toHaveCount(2);
});

test('Recharge Details lists the static purchase and its renewal with their kinds, filters by kind, and cancels an unpaid order', async ({ page }) => {
  const goods = (await call(page, token, 'get', '/api/goods')) as { packages: { id: number }[] };
  const unpaid = (await call(page, token, 'post', '/api/buy/dynamic', { goodsId: goods.packages[0]!.id, payMethod: 'sandbox' })) as { order: { orderNo: string } };
  await openWithSession(page, `/manage/center/rechargeDetails?lang=en&token=${token}`);
  const list = page.getByTestId('recharge-details');
  const rows = list.locator('.ant-table-row');
  await expect(rows).toHaveCount(3);
  await expect(rows.getByTestId('order-kind')).toHaveText(['Rotating traffic', 'Static IP renewal', 'Static IP']);

  await choose(page, page.getByTestId('filter-kind'), 'Static IP renewal');
  await expect(rows).toHaveCount(1);
  await expect(rows.first()).toContainText(bought[0]!);
  await list.getByRole('button', { name: 'Reset' }).click();
  await expect(rows).toHaveCount(3);

  const pending = rows.filter({ hasText: unpaid.order.orderNo });
  await pending.getByTestId('cancel-order-button').click();
  await keepScreenshot(page, 'recharge-cancel-dialog');
  await confirmDialog(page, 'cancel-order-confirm');
  await expect(pending).toContainText('Cancelled');
  await expect(pending.getByTestId('cancel-order-button')).toHaveCount(0);
});

test('the customer replaces the other IP with a reason: a new exit, no replacement left', async ({ page }) => {
  await openWithSession(page, `/manage/center/staticResidential?lang=en&token=${token}`);
  const old = bought[1]!;
  const row = rowOf(page, old);
  const username = (await row.locator('.static-login .mono').first().innerText()).trim();
  await row.getByTestId('static-replace').click();
  const modal = page.getByTestId('replace-modal');
  await expect(modal.getByTestId('replace-quota')).toContainText('Replacements left for this IP: 1');
  await dialogOpened(page.locator('.ant-modal', { has: page.getByTestId('replace-submit') }));
  await choose(page, modal.getByTestId('replace-reason'), 'Blocked by a site');
  await modal.getByTestId('replace-note').fill('Blocked by the shop since Monday');
  await page.getByTestId('replace-submit').click();

  const fresh = IPS.find((ip) => !bought.includes(ip))!;
  await expect(page.locator('.ant-message')).toContainText(`Replaced: your new IP is ${fresh}.`);
  const replaced = rowOf(page, fresh);
  await expect(replaced).toBeVisible();
  await expect(rowOf(page, old)).toHaveCount(0);
  // Same login and expiry, now without a replacement left.
  await expect(replaced).toContainText(username);
  await expect(replaced.getByTestId('static-time-left')).toHaveText('in 29 days');
  await expect(replaced.getByTestId('static-replace')).toBeDisabled();
});

test('the renew dialog writes the price the way Traditional Chinese does (US$5.00)', async ({ page }) => {
  await openWithSession(page, `/manage/center/staticResidential?lang=zh&token=${token}`);
  await page.getByTestId('static-proxies').locator('.ant-table-row').first().getByTestId('static-renew-one').click();
  await expect(page.getByTestId('renew-total')).toHaveText('US$5.00');
});

test('Account Home names an IP that expires within 7 days, and its Renew button leads to Static Residential', async ({ page }) => {
  // An IP granted by an admin for 3 days.
  const name = (en: string) => ({ en, 'zh-cn': en, zh: en });
  const region = (await call(page, adminToken, 'post', '/api/manage/static-region', { country: 'DE', city: 'berlin', name: name('Berlin') })) as { id: number };
  const business = (await call(page, adminToken, 'post', '/api/manage/business', { code: `local${Date.now().toString(36)}`, name: name('Local checks') })) as { id: number };
  const exitIp = '198.51.100.50';
  await call(page, adminToken, 'post', '/api/manage/static-inventory', { regionId: region.id, lines: `http://127.0.0.1:${E2E.upstreamPort} ${exitIp}` });
  const me = (await call(page, token, 'get', '/api/user')) as { id: number };
  await call(page, adminToken, 'post', '/api/manage/static-recharge', { userId: me.id, regionId: region.id, businessId: business.id, quantity: 1, days: 3, note: 'e2e local upstream' });

  await openWithSession(page, `/manage/center?lang=en&token=${token}`);
  const expiring = page.getByTestId('home-expiring');
  await expect(expiring.getByTestId('home-expiring-ip')).toHaveCount(1);
  await expect(expiring).toContainText(exitIp);
  await expect(expiring).toContainText('Berlin');
  await keepScreenshot(page, 'static-home-expiring-en');
  await expiring.getByTestId('home-expiring-renew').click();
  await expect(page).toHaveURL(/\/manage\/center\/staticResidential/);

  await expect(page.locator(`[data-testid=static-lines][data-ip="${exitIp}"]`)).toContainText('http://');
});

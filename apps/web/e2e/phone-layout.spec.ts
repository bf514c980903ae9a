import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { E2E } from './e2e-env';
import { apiLogin, apiRegister, keepScreenshot, openWithSession } from './helpers';

// Phone-sized screens (390 × 844) and wide ones: the menu is a drawer over the page on a phone, and the side
// menu fills the height of a wide screen however long the page. That no page reaches past the screen's
// edge, in every language, is layout.spec.ts's tour.
test.describe.configure({ mode: 'serial' });

const PHONE = { width: 390, height: 844 };
const WIDE = { width: 1440, height: 900 };
const email = `phone-${Date.now()}@e2e.test`;
const password = 'PhonePass123';
const GB = 1024 ** 3;
let token = '';
let adminToken = '';
let orderNo = '';

async function asCustomer(request: APIRequestContext, method: 'get' | 'post', url: string, data?: unknown) {
  const res = await request[method](url, { headers: { Authorization: `Bearer ${token}` }, data });
  expect(res.ok(), await res.text()).toBe(true);
  return ((await res.json()) as { data: unknown }).data;
}

/** The page's heading is up and nothing is still loading. */
async function settled(page: Page, address: string): Promise<void> {
  const [pathname, query] = address.split('?');
  await expect(page).toHaveURL(new RegExp(`/manage${pathname}${query ? `\\?${query}` : '(\\?|$)'}`));
  await expect(page.locator('.page-heading__title')).toBeVisible();
  await expect(page.locator('.ant-spin-spinning, .ant-skeleton, .page-loading')).toHaveCount(0);
  if (query?.startsWith('article=')) await expect(page.locator('.article-view__title')).toBeVisible();
}

test.beforeAll(async ({ request }) => {
  // A customer with something on every page: traffic, a proxy account, a paid and a pending order.
  token = await apiRegister(email, password);
  adminToken = await apiLogin(request, E2E.adminEmail, E2E.adminPassword);
  const me = (await asCustomer(request, 'get', '/api/user')) as { id: number };
  const recharge = await request.post('/api/manage/recharge', {
    headers: { Authorization: `Bearer ${adminToken}` },
    data: { userId: me.id, bytes: 5 * GB, validityDays: 30, note: 'e2e phone' },
  });
  expect(recharge.ok(), await recharge.text()).toBe(true);
  await asCustomer(request, 'post', '/api/proxy/dynamic', { username: `phone_${Date.now().toString(36)}`, password: 'PhoneProxy123', remark: 'phone' });
  const goods = (await asCustomer(request, 'get', '/api/goods')) as { packages: { id: number }[] };
  const bought = (await asCustomer(request, 'post', '/api/buy/dynamic', { goodsId: goods.packages[0]?.id, payMethod: 'sandbox' })) as {
    order: { orderNo: string };
  };
  orderNo = bought.order.orderNo;
});

test('on a phone the menu is a drawer over the page that closes once an entry is chosen', async ({ page }) => {
  await page.setViewportSize(PHONE);
  await openWithSession(page, `/manage/center?lang=en&token=${token}`);
  await settled(page, '/center');
  const content = page.locator('.app-content');
  const before = await content.boundingBox();
  // The page has the screen's whole width: no side bar beside it.
  expect(before?.x).toBe(0);
  expect(before?.width).toBe(PHONE.width);
  const drawer = page.locator('.ant-drawer-content-wrapper');
  await expect(drawer).toBeHidden();

  await page.getByTestId('menu-open').click();
  await expect(drawer).toBeVisible();
  await expect(page.locator('.ant-drawer-mask')).toBeVisible();
  await expect(page.getByTestId('menu-open')).toHaveAttribute('aria-expanded', 'true');
  // Over the page, not beside it: the content keeps its place and width.
  expect(await content.boundingBox()).toEqual(before);
  await keepScreenshot(page, 'layout/390-en-menu-open');

  await page.getByTestId('side-menu').getByText('Recharge Details').click();
  await settled(page, '/center/rechargeDetails');
  await expect(drawer).toBeHidden();
  await expect(page.locator('.page-heading__title')).toHaveText('Recharge Details');

  // The order number is there in full, not cut to "D202…" under a pinned column.
  const cell = page.locator('.ant-table-row', { hasText: orderNo }).locator('td').first();
  await expect(cell).toContainText(orderNo);
  const box = await cell.boundingBox();
  expect(box && box.x >= 0 && box.x + box.width <= PHONE.width).toBe(true);
  const covered = await cell.evaluate((td) => {
    const r = td.getBoundingClientRect();
    const hit = document.elementFromPoint(r.right - 2, r.top + r.height / 2);
    return hit !== null && !td.contains(hit);
  });
  expect(covered).toBe(false);

  // The mask closes it as well.
  await page.getByTestId('menu-open').click();
  await expect(drawer).toBeVisible();
  await page.locator('.ant-drawer-mask').click({ position: { x: PHONE.width - 20, y: 400 } });
  await expect(drawer).toBeHidden();
});

test('on a wide screen the side menu fills the height of a long page, scrolled to its end too', async ({ page }) => {
  await page.setViewportSize(WIDE);
  await openWithSession(page, `/manage/center/rotatingResidential?lang=en&token=${token}`);
  await settled(page, '/center/rotatingResidential');
  const sider = page.locator('.app-sider');
  const height = await page.evaluate(() => document.documentElement.scrollHeight);
  expect(height).toBeGreaterThan(WIDE.height * 1.5);
  // Layout rounds to half pixels.
  expect((await sider.boundingBox())?.height).toBeGreaterThanOrEqual(height - 1);
  await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
  await expect.poll(() => page.evaluate(() => window.scrollY)).toBeGreaterThanOrEqual(height - WIDE.height - 1);
  const menu = await page.getByTestId('side-menu').boundingBox();
  const bar = await sider.boundingBox();
  // In the viewport's frame: the dark bar reaches its bottom and the menu is still in view at the top.
  expect(bar && bar.y + bar.height).toBeGreaterThanOrEqual(WIDE.height - 1);
  expect(await page.evaluate(() => document.elementFromPoint(20, window.innerHeight - 2)?.closest('.app-sider') !== null)).toBe(true);
  expect(menu && menu.y).toBeGreaterThanOrEqual(0);
  expect(menu && menu.y).toBeLessThan(100);
  await keepScreenshot(page, 'layout/1440-en-rotating');
});

import { expect, test, type Locator, type Page } from '@playwright/test';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { E2E } from './e2e-env';
import { apiLogin, apiRegister, FIRST_PAINT_MS, keepScreenshot, LANGS, openWithSession, settled } from './helpers';
import { duplicateIds, hiddenChoices, horizontalOverflow, tableProblems } from './layout-checks';
import { looksLikeRawKey, rawKeyTexts } from './localized';
import { buyBasic, call, distributorWithPayoff, grantStaticIp, userId } from './seed';

/*
 * Every page of the console at 1440 px in English, Simplified and Traditional Chinese, and at 390 px in the first two: nothing
 * reaches past the screen's edge, no text is an untranslated key, the page's title and heading are in the
 * language, and the page raised no error. One load per person and width; from there the tour moves inside
 * the app (history + popstate, which React Router follows) and switches language from the header's menu,
 * as a user would: a cold load of each page cost 1–3 s and was most of the browser suite's time.
 * In tour mode (`npm run tour`) every page is also kept as a picture under artifacts/screenshots/<store>/layout.
 */

type Lang = (typeof LANGS)[number];
type Access = 'public' | 'customer' | 'distributor' | 'admin';

/**
 * The phone width tours English and Simplified Chinese only: Traditional Chinese sets the same full-width
 * glyphs in strings of the same length as Simplified, so what fits one fits the other, and its titles and
 * headings are checked at 1440. A third language at 390 px was a sixth of the browser suite's time.
 */
const WIDTHS = [
  { width: 1440, height: 900, langs: LANGS },
  { width: 390, height: 844, langs: ['en', 'zh-cn'] as const },
] as const;

const LANGUAGE_LABELS: Record<Lang, string> = { en: 'English', 'zh-cn': '简体中文', zh: '繁體中文' };

interface RouteRow {
  path: string;
  name: string;
  access: Access;
  /** Drawn inside the layout with the side menu and the page heading. */
  layout: boolean;
}

/** The console's route table, read from its source so a page added there is toured too. */
function routeTable(): RouteRow[] {
  const source = readFileSync(path.join(E2E.root, 'apps/web/src/app/routes.tsx'), 'utf8');
  const rows = [...source.matchAll(/(layoutRoute\(\{|\{)\s*path: '([^']+)',\s*name: '([^']+)',[\s\S]*?access: '([^']+)'/g)];
  return rows.map((m) => ({ path: m[2]!, name: m[3]!, access: m[4] as Access, layout: m[1]!.startsWith('layoutRoute') }));
}

/** routes.<name> in each language: the document title is `Resi Console - <title>` and the layout's heading says it. */
const TITLES = Object.fromEntries(
  LANGS.map((lang) => [lang, JSON.parse(readFileSync(path.join(E2E.root, `apps/web/src/locales/${lang}/routes.json`), 'utf8')) as Record<string, string>]),
) as Record<Lang, Record<string, string>>;

/**
 * One heading on the page besides the title, written out per language so a missing translation fails
 * (taken over from the screenshot tests the pages had before this suite).
 */
const HEADINGS: Record<string, Record<Lang, string>> = {
  buy: { en: 'Traffic packages', 'zh-cn': '流量套餐', zh: '流量套餐' },
  rotatingResidential: { en: 'Proxy accounts', 'zh-cn': '代理账户', zh: '代理帳戶' },
  proxy: { en: 'Proxy settings', 'zh-cn': '代理设置', zh: '代理設定' },
  staticResidential: { en: 'My static IPs', 'zh-cn': '我的静态 IP', zh: '我的靜態 IP' },
  manageUser: { en: 'All users', 'zh-cn': '全部用户', zh: '全部使用者' },
  manageLogs: { en: 'Attempts per day', 'zh-cn': '每日登录尝试', zh: '每日登入嘗試' },
  manageStatistics: { en: 'Figures per period', 'zh-cn': '各时间段数据', zh: '各期間資料' },
  manageSupply: { en: 'Providers', 'zh-cn': '供应商', zh: '供應商' },
};

/** A refunded order's status on Recharge Details. */
const REFUNDED: Record<Lang, string> = { en: 'Refunded', 'zh-cn': '已退款', zh: '已退款' };

/** The usage chart's legend: download, then upload. */
const LEGEND: Record<Lang, [string, string]> = { en: ['Download', 'Upload'], 'zh-cn': ['下载', '上传'], zh: ['下載', '上傳'] };

/** The refund dialog's title, before the order number. */
const REFUND_TITLE: Record<Lang, string> = { en: 'Refund order', 'zh-cn': '退款订单', zh: '退款訂單' };

interface Stop {
  /** Console path (with its query), without the /manage base. */
  address: string;
  /** The route's name: its title in each language. */
  name: string;
  layout: boolean;
  /** Shown once the page has its data: tables are checked with rows in them, not empty. */
  ready?: (page: Page, lang: Lang) => Locator;
  /** More to check on the page: a dialog or drawer it opens (checked like the page and closed again), or a detail. */
  dialog?: (page: Page, lang: Lang) => Promise<void>;
}

const stamp = Date.now();
const customerEmail = `layout-${stamp}@e2e.test`;
const proxyUser = `layout_${stamp.toString(36)}`;
const providerName = `Layout ${stamp}`;
let customerToken = '';
let adminToken = '';
let visitorEmail = '';
let paidOrderNo = '';
let refundedOrderNo = '';

const rows = (testId: string) => (page: Page) => page.getByTestId(testId).locator('.ant-table-row').first();
const anyRow = (page: Page) => page.locator('.ant-table-row').first();

/** What the customer's pages need to be ready with their data. */
const CUSTOMER_READY: Record<string, (page: Page, lang: Lang) => Locator> = {
  center: (page) => page.getByTestId('usage-chart'),
  buy: (page) => page.getByTestId('packages'),
  proxy: (page) => page.getByTestId('proxy-lines').filter({ hasText: proxyUser }),
  rotatingResidential: (page) => page.getByTestId('proxy-accounts').locator('.ant-table-row', { hasText: proxyUser }),
  staticResidential: rows('static-proxies'),
  rechargeDetails: (page, lang) => page.locator('.ant-table-row', { hasText: refundedOrderNo }).getByTestId('order-status').filter({ hasText: REFUNDED[lang] }),
  faq: (page) => page.getByTestId('faq-list'),
  blog: (page) => page.getByTestId('article-list'),
  toolbox: (page) => page.getByTestId('line-converter'),
  personal: (page) => page.getByTestId('profile-card').filter({ hasText: customerEmail }),
  distributionUser: (page) => page.getByTestId(`referral-row-${visitorEmail}`),
  distributionManage: (page) => page.getByTestId('distribution-figures'),
  distributionChannel: (page) => page.getByTestId('channel-totals'),
};

/** The sign-in forms with their picture code. */
const PUBLIC_READY: Record<string, (page: Page) => Locator> = {
  login: (page) => page.getByTestId('login-form').getByTestId('captcha-image').locator('img'),
  register: (page) => page.getByTestId('register-form').getByTestId('captcha-image').locator('img'),
};

const ADMIN_READY: Record<string, (page: Page) => Locator> = {
  manageUser: rows('user-list'),
  manageOrder: rows('order-desk'),
  managePay: (page) => page.getByTestId('pay-config-sandbox'),
  manageLogs: rows('top-failing-ips'),
  manageGoods: anyRow,
  manageRegion: anyRow,
  manageBusiness: anyRow,
  // The paused provider made below: an enabled one would take the other specs' traffic off direct egress.
  manageSupply: (page) => page.getByTestId('providers-table').locator('.ant-table-row', { hasText: providerName }),
  manageStaticInventory: anyRow,
  manageStatistics: (page) => page.getByTestId('statistics-periods'),
};

/** The usage chart lists download before upload. */
async function legendOrder(page: Page, lang: Lang): Promise<void> {
  const [down, up] = LEGEND[lang];
  const chart = page.getByTestId('usage-chart');
  await expect(chart).toContainText(up);
  const text = await chart.innerText();
  expect(text.indexOf(down), `${lang}: ${text}`).toBeGreaterThanOrEqual(0);
  expect(text.indexOf(down), `${lang}: ${text}`).toBeLessThan(text.indexOf(up));
}

/** At the normal menu width (1440 px), every label of the admin's side menu (all groups open) is shown whole. */
async function menuLabelsWhole(page: Page, lang: Lang): Promise<void> {
  if (page.viewportSize()?.width !== 1440) return;
  const menu = page.getByTestId('side-menu');
  const closed = menu.locator('.ant-menu-submenu:not(.ant-menu-submenu-open)');
  for (let left = await closed.count(); left > 0; left -= 1) {
    await closed.first().locator('.ant-menu-submenu-title').click();
    await expect(closed).toHaveCount(left - 1);
  }
  const cut = await menu.evaluate((el) =>
    [...el.querySelectorAll<HTMLElement>('.ant-menu-title-content')]
      .filter((label) => label.scrollWidth > label.clientWidth + 1 || label.getBoundingClientRect().right > el.getBoundingClientRect().right)
      .map((label) => label.innerText),
  );
  expect(cut, `menu labels cut in ${lang}`).toEqual([]);
  await keepScreenshot(page, `layout/1440-${lang}-menu-open`);
}

/** The admin's user detail drawer on the customer: its texts translated, nothing past the edge, the audit tab opens. */
async function userDrawer(page: Page, lang: Lang): Promise<void> {
  await page.getByTestId('user-filter-email').fill(customerEmail);
  await page.getByTestId('users-search').click();
  const row = page.locator('[data-testid="user-list"] .ant-table-row', { hasText: customerEmail });
  await expect(page.locator('[data-testid="user-list"] .ant-table-row')).toHaveCount(1);
  await row.getByTestId('user-open').click();
  const drawer = page.getByRole('dialog').filter({ has: page.getByTestId('user-actions') });
  await expect(drawer).toBeVisible();
  await settled(page);
  const texts = await drawer.locator('th, label, button, [role="tab"], .ant-descriptions-item-label, .ant-tag').allInnerTexts();
  expect(texts.filter(looksLikeRawKey), `user detail (${lang})`).toEqual([]);
  expect(await rawKeyTexts(page), `user detail (${lang})`).toEqual([]);
  await expectInside(page, `user detail (${lang})`);
  await keepScreenshot(page, `layout/${page.viewportSize()?.width}-${lang}-user-detail`);
  // By its key, not its place: tabs are added (API keys came before it).
  await drawer.locator('[data-node-key="audit"] [role="tab"]').click();
  await expect(drawer.getByTestId('user-audit')).toBeVisible();
  await keepScreenshot(page, `layout/${page.viewportSize()?.width}-${lang}-user-audit`);
  await page.keyboard.press('Escape');
  await expect(drawer).toBeHidden();
}

/** The provider dialog on the paused provider: its texts translated, it fits the screen (cancelled, never sent). */
async function providerDialog(page: Page, lang: Lang): Promise<void> {
  await page.getByTestId('providers-table').locator('.ant-table-row', { hasText: providerName }).getByTestId('provider-edit').click();
  const modal = page.getByTestId('provider-modal');
  await expect(modal.getByTestId('provider-name')).toHaveValue(providerName);
  await expect(page.locator('.ant-modal[class*="zoom"]')).toHaveCount(0);
  expect(await rawKeyTexts(page), `provider dialog (${lang})`).toEqual([]);
  await expectInside(page, `provider dialog (${lang})`);
  await keepScreenshot(page, `layout/${page.viewportSize()?.width}-${lang}-provider-dialog`);
  await page.keyboard.press('Escape');
  await expect(modal).toBeHidden();
}

/** The order desk's refund dialog on the customer's paid order (cancelled, never sent). */
async function refundDialog(page: Page, lang: Lang): Promise<void> {
  await page.getByTestId('filter-order-no').fill(paidOrderNo);
  await page.getByTestId('orders-search').click();
  const row = page.locator('.ant-table-row', { hasText: paidOrderNo });
  await expect(row).toHaveCount(1);
  await row.getByTestId('refund-order').click();
  const modal = page.getByTestId('refund-modal');
  await expect(modal.getByTestId('refund-take-back')).toBeVisible();
  await expect(modal.locator('.ant-modal-title')).toHaveText(`${REFUND_TITLE[lang]} ${paidOrderNo}`);
  await expect(page.locator('.ant-modal[class*="zoom"]')).toHaveCount(0);
  expect(await rawKeyTexts(page), `refund dialog (${lang})`).toEqual([]);
  await expectInside(page, `refund dialog (${lang})`);
  await keepScreenshot(page, `layout/${page.viewportSize()?.width}-${lang}-refund-dialog`);
  await page.keyboard.press('Escape');
  await expect(modal).toBeHidden();
}

function stopsFor(who: 'customer' | 'admin' | 'public'): Stop[] {
  const table = routeTable();
  if (who === 'public') {
    // The error page is where a failed load lands (its texts come with the failure): load-errors.spec.ts shows it.
    return table
      .filter((r) => r.access === 'public' && r.name !== 'error')
      .map((r) => ({ address: r.path, name: r.name, layout: r.layout, ready: PUBLIC_READY[r.name] }));
  }
  if (who === 'customer') {
    const stops: Stop[] = table
      .filter((r) => r.access === 'customer' || r.access === 'distributor')
      .map((r) => ({ address: r.path, name: r.name, layout: r.layout, ready: CUSTOMER_READY[r.name], dialog: r.name === 'center' ? legendOrder : undefined }));
    // An article of each library: code blocks and tables in Markdown.
    stops.push(
      { address: '/learn/knowledge?article=getting-started', name: 'knowledgeBase', layout: true, ready: (page) => page.getByTestId('article-view') },
      { address: '/toolbox?article=curl', name: 'toolbox', layout: true, ready: (page) => page.getByTestId('article-view') },
    );
    return stops;
  }
  const stops: Stop[] = table
    .filter((r) => r.access === 'admin')
    .map((r) => ({
      address: r.path,
      name: r.name,
      layout: true,
      ready: ADMIN_READY[r.name],
      dialog: r.name === 'manageUser' ? userDrawer : r.name === 'manageOrder' ? refundDialog : r.name === 'manageSupply' ? providerDialog : undefined,
    }));
  // The admin's own Account Home (the statistics summary) and the payoff desk with the pending request.
  stops.push(
    { address: '/center', name: 'center', layout: true, ready: (page) => page.getByTestId('admin-summary').getByTestId('statistics-summary-today') },
    { address: '/distribution/manage?tab=requests', name: 'distributionManage', layout: true, ready: rows('payoff-requests'), dialog: menuLabelsWhole },
  );
  return stops;
}

/** Nothing reaches past the screen's left or right edge. */
async function expectInside(page: Page, where: string): Promise<void> {
  const width = page.viewportSize()?.width ?? 0;
  expect(await horizontalOverflow(page), where).toEqual({ scrollWidth: width, innerWidth: width, outside: [] });
}

/** Widths at which every table shows its headers whole and no control under a pinned column: a laptop's too. */
const TABLE_WIDTHS = [1440, 1280];

/**
 * On the wide pass, every table at 1440 and at 1280 px: the window is narrowed in place (antd measures the
 * tables again) and widened back, so the tour still never reloads.
 */
async function expectTablesWhole(page: Page, where: string): Promise<void> {
  const size = page.viewportSize();
  if (!size || size.width !== TABLE_WIDTHS[0]) return;
  for (const width of TABLE_WIDTHS) {
    if (width !== size.width) await page.setViewportSize({ width, height: size.height });
    // Polled: antd measures a table's columns again a few frames after the resize. Soft: one run names every
    // table that does not fit, not only the first.
    await expect.configure({ soft: true }).poll(() => tableProblems(page), { message: `tables on ${where} at ${width} px` }).toEqual([]);
  }
  await page.setViewportSize(size);
}

/** Moves to a console path inside the app: React Router follows history changes announced by popstate. */
async function goInside(page: Page, address: string): Promise<void> {
  await page.evaluate((to) => {
    const idx = ((window.history.state as { idx?: number } | null)?.idx ?? 0) + 1;
    window.history.pushState({ usr: null, key: `tour${idx}`, idx }, '', to);
    window.dispatchEvent(new PopStateEvent('popstate', { state: window.history.state }));
  }, `/manage${address}`);
}

/** Switches the language from the header's (or the login page's) language menu, without a reload. */
async function switchLanguage(page: Page, lang: Lang): Promise<void> {
  const current = page.getByTestId('language-switcher');
  await current.click();
  // The console's antd menu and the login page's light one both list the languages as menu items.
  await page.getByRole('menuitem', { name: LANGUAGE_LABELS[lang], exact: true }).click();
  await expect(current).toHaveText(LANGUAGE_LABELS[lang]);
}

/** Errors the page raised or logged since the last look, so each page answers for its own. */
function collectErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(`page error: ${error.message}`));
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(`console: ${message.text()}`);
  });
  return errors;
}

async function checkStop(page: Page, stop: Stop, lang: Lang, errors: string[]): Promise<void> {
  const where = `${stop.address} (${lang}, ${page.viewportSize()?.width} px)`;
  const title = TITLES[lang][stop.name];
  expect(title, `routes.${stop.name} in ${lang}`).toBeTruthy();
  const [pathname, query] = stop.address.split('?');
  await expect(page, where).toHaveURL(new RegExp(`/manage${pathname}${query ? `\\?${query.replace(/[?]/g, '\\?')}` : '(\\?|$)'}`));
  await expect(page, where).toHaveTitle(`Resi Console - ${title}`);
  if (stop.layout) await expect(page.locator('.page-heading__title'), where).toHaveText(title!);
  if (stop.ready) await expect(stop.ready(page, lang), where).toBeVisible({ timeout: FIRST_PAINT_MS });
  await settled(page);
  const heading = HEADINGS[stop.name]?.[lang];
  if (heading) {
    const exact = new RegExp(`^\\s*${heading.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\s*$`);
    await expect(page.locator('h1, h2, h3, h4, h5, h6, .ant-card-head-title').filter({ hasText: exact }).first(), where).toBeVisible();
  }
  expect(await rawKeyTexts(page), `raw i18n keys on ${where}`).toEqual([]);
  await expectInside(page, where);
  expect(await duplicateIds(page), `duplicate ids on ${where}`).toEqual([]);
  expect(await hiddenChoices(page), `switcher choices out of sight on ${where}`).toEqual([]);
  await expectTablesWhole(page, where);
  await keepScreenshot(page, `layout/${page.viewportSize()?.width}-${lang}${stop.address.replace(/[/?=&]/g, '-')}`);
  if (stop.dialog) await stop.dialog(page, lang);
  expect(errors.splice(0), `errors on ${where}`).toEqual([]);
}

/** Loads the first stop once, then visits every stop in every language without loading the page again. */
async function tour(page: Page, stops: Stop[], token: string | null, langs: readonly Lang[]): Promise<void> {
  const errors = collectErrors(page);
  const first = stops[0]!;
  const address = `/manage${first.address}${first.address.includes('?') ? '&' : '?'}lang=${langs[0]}`;
  if (token) await openWithSession(page, `${address}&token=${token}`);
  else await page.goto(address);
  // Gone if the page were loaded again: the tour stays inside the app.
  await page.evaluate(() => ((window as unknown as { tourMark: number }).tourMark = 1));
  for (const lang of langs) {
    if (lang !== langs[0]) {
      await settled(page);
      await switchLanguage(page, lang);
    }
    for (const stop of stops) {
      if (!(lang === langs[0] && stop === first)) await goInside(page, stop.address);
      await checkStop(page, stop, lang, errors);
    }
  }
  expect(await page.evaluate(() => (window as unknown as { tourMark?: number }).tourMark), 'the tour never reloaded the page').toBe(1);
}

test.beforeAll(async ({ request }) => {
  // A customer with something on every page: traffic, a proxy account, a paid, a refunded and an open order, a static
  // IP, a failed sign-in; a distributor with a referral who paid, and a payoff request waiting for the admin.
  customerToken = await apiRegister(customerEmail, 'LayoutPass123');
  adminToken = await apiLogin(request, E2E.adminEmail, E2E.adminPassword);
  const customerId = await userId(request, customerToken);
  await call(request, adminToken, 'post', '/api/manage/recharge', { userId: customerId, bytes: 5 * 1024 ** 3, validityDays: 30, note: 'e2e layout' });
  await call(request, customerToken, 'post', '/api/proxy/dynamic', { username: proxyUser, password: 'LayoutProxy123', remark: 'layout' });
  paidOrderNo = await buyBasic(request, customerToken);
  refundedOrderNo = await buyBasic(request, customerToken);
  await call(request, adminToken, 'post', '/api/manage/order-refund', { orderNo: refundedOrderNo, note: 'e2e layout' });
  await buyBasic(request, customerToken, false);
  await grantStaticIp(request, adminToken, customerId);
  // Paused: listed on the providers page, never chosen by the gateway.
  await call(request, adminToken, 'post', '/api/manage/providers', {
    name: providerName,
    upstreams: [{ url: `http://layout:secret@127.0.0.1:${E2E.upstreamPort}`, country: 'US' }],
    regions: ['US'],
    costPerGb: { amount: 150, currency: 'USD', from: new Date().toISOString().slice(0, 10) },
    monthlyQuotaGb: 100,
    status: 'paused',
  });
  ({ visitorEmail } = await distributorWithPayoff(request, adminToken, customerToken));
  const captcha = (await (await request.get('/api/captcha')).json()) as { data: { id: string } };
  const failed = await request.post('/api/login', { data: { account: customerEmail, password: 'Wrong-pass-1', captchaId: captcha.data.id, captcha: E2E.captcha } });
  expect(failed.status()).toBe(400);
});

for (const { langs, ...viewport } of WIDTHS) {
  const inLanguages = langs.length === 3 ? 'in three languages' : `in ${langs.join(' and ')}`;
  test.describe(`at ${viewport.width} px`, () => {
    test.use({ viewport });

    test(`login and register ${inLanguages}`, async ({ page }) => {
      await tour(page, stopsFor('public'), null, langs);
    });

    test(`every customer and distributor page ${inLanguages}`, async ({ page }) => {
      // A budget for about twenty pages in each of three languages, not a wait in it: 1–2 min on this
      // 2-core machine, 5 min when it ran beside two other browser suites.
      test.setTimeout(600_000);
      await tour(page, stopsFor('customer'), customerToken, langs);
    });

    test(`every admin page, the user detail and the refund dialog ${inLanguages}`, async ({ page }) => {
      test.setTimeout(600_000);
      await tour(page, stopsFor('admin'), adminToken, langs);
    });
  });
}

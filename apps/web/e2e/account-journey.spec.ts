import { expect, test } from '@playwright/test';
import { E2E } from './e2e-env';
import { apiLogin, openWithSession, requestMailCode } from './helpers';

// One customer's whole first visit, in order: the steps share the account they create.
test.describe.configure({ mode: 'serial' });

const email = `journey-${Date.now()}@e2e.test`;
const firstPassword = 'FirstPass123';
const secondPassword = 'SecondPass456';

test('a guarded page without a session sends the visitor to login with a timestamp', async ({ page }) => {
  const before = Date.now();
  await page.goto('/manage/center/buy');
  await expect(page).toHaveURL(/\/manage\/user\/login\?t=\d+&redirect=%2Fcenter%2Fbuy$/);
  const t = Number(new URL(page.url()).searchParams.get('t'));
  expect(t).toBeGreaterThanOrEqual(before);
  expect(t).toBeLessThanOrEqual(Date.now());
  await expect(page).toHaveTitle('Resi Console - Login');
  await expect(page.getByTestId('tagline')).toHaveText('Global high-quality IP proxy service');

  // The login form and the reset dialog on one page: every element id is unique (labels point at one control).
  await page.getByTestId('forgot-password').click();
  await expect(page.getByTestId('reset-form')).toBeVisible();
  const duplicates = await page.evaluate(() => {
    const ids = [...document.querySelectorAll('[id]')].map((e) => e.id);
    return ids.filter((id, i) => ids.indexOf(id) !== i);
  });
  expect(duplicates).toEqual([]);
});

test('register with the mailed code; the channel from the link reaches the stored user', async ({ page, request }) => {
  await page.goto('/manage/user/register?hz=spring-promo');
  await expect(page).toHaveTitle('Resi Console - Register');
  const form = page.getByTestId('register-form');
  await form.getByLabel('Email', { exact: true }).fill(email);
  await form.getByLabel('Password', { exact: true }).fill(firstPassword);
  await form.getByLabel('Confirm password').fill(firstPassword);
  await requestMailCode(page, 'register-form', email);

  // Without the agreement ticked nothing is sent.
  await page.getByTestId('register-submit').click();
  await expect(form.getByText('Please agree to the user service agreement')).toBeVisible();
  await page.getByTestId('agree').click();
  await page.getByTestId('register-submit').click();

  await expect(page).toHaveURL(/\/manage\/center$/);
  await expect(page).toHaveTitle('Resi Console - Account Home');
  await expect(page.getByTestId('welcome-email')).toHaveText(email);
  expect(await page.evaluate(() => sessionStorage.getItem('channel_key'))).toBe('hz');

  const adminToken = await apiLogin(request, E2E.adminEmail, E2E.adminPassword);
  const res = await request.get(`/api/manage/user?email=${encodeURIComponent(email)}`, { headers: { Authorization: `Bearer ${adminToken}` } });
  expect(res.ok()).toBe(true);
  const { data } = (await res.json()) as { data: { items: { email: string; channelKey: string | null; channelValue: string | null }[] } };
  expect(data.items).toHaveLength(1);
  expect(data.items[0]).toMatchObject({ email, channelKey: 'hz', channelValue: 'spring-promo' });
});

test('after logging in, the page that was asked for opens; a return path to another host goes to Account Home', async ({ page }) => {
  const logIn = async () => {
    const login = page.getByTestId('login-form');
    await login.getByLabel('Email or account').fill(email);
    await login.getByLabel('Password').fill(firstPassword);
    await login.locator('.captcha-input input').fill(E2E.captcha);
    await page.getByTestId('login-submit').click();
  };
  await page.goto('/manage/center/buy?lang=en');
  await expect(page).toHaveURL(/\/manage\/user\/login\?t=\d+&redirect=/);
  await logIn();
  await expect(page).toHaveURL(/\/manage\/center\/buy\?lang=en$/);
  await expect(page).toHaveTitle('Resi Console - Package Purchase');

  await page.evaluate(() => sessionStorage.clear());
  for (const evil of ['%2F%2Fevil.example', '%2F%5Cevil.example', 'https%3Aevil.example']) {
    await page.goto(`/manage/user/login?t=1&redirect=${evil}`);
    await logIn();
    await expect(page).toHaveURL(/\/manage\/center$/);
    await page.evaluate(() => sessionStorage.clear());
  }
});

test('log in, switch to Simplified and Traditional Chinese, change the password, log out', async ({ page }) => {
  await page.goto('/manage/user/login');
  const login = page.getByTestId('login-form');
  await login.getByLabel('Email or account').fill(email);
  await login.getByLabel('Password').fill(firstPassword);
  await login.locator('.captcha-input input').fill(E2E.captcha);
  await page.getByTestId('login-submit').click();
  await expect(page).toHaveURL(/\/manage\/center$/);

  // A guarded page, reached through the side menu.
  await page.getByTestId('side-menu').getByText('Package Purchase').click();
  await expect(page).toHaveURL(/\/manage\/center\/buy$/);
  await expect(page).toHaveTitle('Resi Console - Package Purchase');

  await page.goto('/manage/center/buy?lang=zh-cn');
  await expect(page).toHaveTitle('Resi Console - 套餐购买');
  await expect(page.getByTestId('side-menu')).toContainText('获取代理');
  expect(await page.evaluate(() => sessionStorage.getItem('lang'))).toBe('zh-cn');
  await expect(page.locator('html')).toHaveAttribute('lang', /zh/i);

  await page.goto('/manage/center/buy?lang=zh');
  await expect(page).toHaveTitle('Resi Console - 套餐購買');
  await expect(page.getByTestId('side-menu')).toContainText('獲取代理');

  await page.goto('/manage/center?lang=en');
  await expect(page).toHaveTitle('Resi Console - Account Home');
  await expect(page.getByTestId('welcome-email')).toHaveText(email);

  // The header's language switcher, without ?lang=: texts, title and antd's own locale (the date picker's
  // placeholders) follow at once, without reloading the page.
  await page.getByTestId('side-menu').getByText('Recharge Details').click();
  await expect(page).toHaveTitle('Resi Console - Recharge Details');
  const rangeStart = page.getByTestId('recharge-details').locator('.ant-picker-range input').first();
  await expect(rangeStart).toHaveAttribute('placeholder', 'Start date');
  await page.evaluate(() => Object.assign(window, { e2eSamePage: true }));
  const switchTo = async (label: string) => {
    await page.getByTestId('language-switcher').click();
    await page.getByRole('menuitem', { name: label, exact: true }).click();
  };
  await switchTo('简体中文');
  await expect(page).toHaveTitle('Resi Console - 充值明细');
  await expect(rangeStart).toHaveAttribute('placeholder', '开始日期');
  await expect(page.getByTestId('side-menu')).toContainText('获取代理');
  await expect(page.getByTestId('language-switcher')).toHaveText('简体中文');
  expect(await page.evaluate(() => sessionStorage.getItem('lang'))).toBe('zh-cn');
  await switchTo('繁體中文');
  await expect(page).toHaveTitle('Resi Console - 充值明細');
  await expect(rangeStart).toHaveAttribute('placeholder', '開始日期');
  expect(await page.evaluate(() => sessionStorage.getItem('lang'))).toBe('zh');
  await switchTo('English');
  await expect(page).toHaveTitle('Resi Console - Recharge Details');
  await expect(rangeStart).toHaveAttribute('placeholder', 'Start date');
  expect(await page.evaluate(() => (window as { e2eSamePage?: boolean }).e2eSamePage)).toBe(true);
  expect(page.url()).not.toContain('lang=');

  // Personal info through the header's user menu.
  await page.getByTestId('user-menu').click();
  await page.getByRole('menuitem', { name: 'Personal info' }).click();
  await expect(page).toHaveURL(/\/manage\/user\/personal$/);
  await expect(page).toHaveTitle('Resi Console - Personal info');
  await expect(page.getByTestId('profile-card')).toContainText(email);
  await expect(page.getByTestId('invite-link')).toHaveValue(/\/manage\/user\/register\?/);

  const change = page.getByTestId('change-password-form');
  await change.getByLabel('Current password').fill(firstPassword);
  await change.getByLabel('New password', { exact: true }).fill(secondPassword);
  await change.getByLabel('Confirm new password').fill(secondPassword);
  await requestMailCode(page, 'change-password-form', email);
  await page.getByTestId('change-password-submit').click();
  await expect(page.getByText('Your password was changed')).toBeVisible();

  // Log out through the header's user menu.
  await page.getByTestId('user-menu').click();
  await page.getByRole('menuitem', { name: 'Log out' }).click();
  await expect(page).toHaveURL(/\/manage\/user\/login/);
  expect(await page.evaluate(() => sessionStorage.getItem('token'))).toBeNull();

  // The old password no longer works; the new one does.
  await login.getByLabel('Email or account').fill(email);
  await login.getByLabel('Password').fill(firstPassword);
  await login.locator('.captcha-input input').fill(E2E.captcha);
  await page.getByTestId('login-submit').click();
  await expect(page.getByText('Wrong account or password')).toBeVisible();
  await expect(page).toHaveURL(/\/manage\/user\/login/);

  await login.getByLabel('Password').fill(secondPassword);
  await login.locator('.captcha-input input').fill(E2E.captcha);
  await page.getByTestId('login-submit').click();
  await expect(page).toHaveURL(/\/manage\/center$/);
});

test('a token the server refuses ends the session and returns to login', async ({ page }) => {
  await page.goto('/manage/user/login');
  await page.evaluate(() => {
    sessionStorage.setItem('token', 'not-a-real-token');
    sessionStorage.setItem('userInfo', JSON.stringify({ email: 'ghost@e2e.test' }));
  });
  await page.goto('/manage/center/proxy');
  // The router goes to login at once and the 401 handler reloads the page there 400 ms later (docs/console.md#session).
  // The test waits for that reload to finish: reading storage mid-reload races it, and a context closed
  // while the reload is still loading can hang Chromium's teardown.
  await page.waitForEvent('load', { timeout: 10_000 });
  // The page asked for rides along when the 401's redirect fires before the router has left it (a loaded
  // machine): either way the browser is at login, and after it back where it was going.
  await expect(page).toHaveURL(/\/manage\/user\/login\?t=\d+(&redirect=%2Fcenter%2Fproxy)?$/);
  expect(await page.evaluate(() => sessionStorage.getItem('token'))).toBeNull();
  expect(await page.evaluate(() => sessionStorage.getItem('userInfo'))).toBeNull();
});

test('the token query parameter starts a session and leaves the address bar', async ({ page, request }) => {
  const token = await apiLogin(request, email, secondPassword);
  await openWithSession(page, `/manage/center?token=${token}`);
  await expect(page).toHaveURL(/\/manage\/center$/);
  await expect(page.getByTestId('welcome-email')).toHaveText(email);
  expect(await page.evaluate(() => sessionStorage.getItem('token'))).toBe(token);

  // The personal page's own logout button ends that session too.
  // "Personal center" is the menu group, "my account" its page (docs/console.md#menu).
  await page.getByTestId('side-menu').getByText('Personal Center').click();
  await page.getByTestId('side-menu').getByText('My Account').click();
  await page.getByTestId('logout').click();
  await expect(page).toHaveURL(/\/manage\/user\/login/);
  expect(await page.evaluate(() => sessionStorage.getItem('token'))).toBeNull();
  expect((await request.get('/api/user', { headers: { Authorization: `Bearer ${token}` } })).status()).toBe(401);
});

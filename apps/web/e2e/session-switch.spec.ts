import { expect, test, type Page } from '@playwright/test';
import { E2E } from './e2e-env';
import { apiLogin, apiRegister, confirmSessionSwitch, FIRST_PAINT_MS, keepScreenshot, openWithSession } from './helpers';

const storedToken = (page: Page) => page.evaluate(() => sessionStorage.getItem('token'));

test("a fresh tab asks before a link's session signs it in, naming the account; no leaves it signed out", async ({ page }) => {
  const email = `link-${Date.now()}@e2e.test`;
  const token = await apiRegister(email, 'Customer123');

  await page.goto(`/manage/center/proxy?lang=en&token=${token}`);
  const dialog = page.getByRole('dialog');
  await expect(dialog).toContainText('Sign in from this link?', { timeout: FIRST_PAINT_MS });
  await expect(dialog).toContainText(`The link signs in as ${email}`);
  // Nothing kept before the answer; the tab waits on the login page, the token already gone from the address.
  await expect(page).toHaveURL(/\/manage\/user\/login\?t=\d+/);
  expect(page.url()).not.toContain('token=');
  expect(await storedToken(page)).toBeNull();
  await keepScreenshot(page, 'session-link-en');

  await page.getByTestId('session-switch-keep').click();
  await expect(dialog).toBeHidden();
  await expect(page.getByTestId('login-submit')).toBeVisible();
  expect(await storedToken(page)).toBeNull();

  // Yes signs in and opens the page the link named.
  await page.goto(`/manage/center/proxy?lang=en&token=${token}`);
  await confirmSessionSwitch(page);
  await expect(page).toHaveURL(/\/manage\/center\/proxy\?lang=en$/);
  await expect(page.getByTestId('user-menu')).toContainText(email);
  expect(await storedToken(page)).toBe(token);
  for (let i = 0; i < 2; i += 1) {
    await page.goBack();
    expect(page.url()).not.toContain('token=');
  }
});

test("a link with another account's token asks first: keep stays signed in, switch changes the account", async ({ page, request }) => {
  const adminToken = await apiLogin(request, E2E.adminEmail, E2E.adminPassword);
  const email = `switch-${Date.now()}@e2e.test`;
  const customerToken = await apiRegister(email, 'Customer123');

  await openWithSession(page, `/manage/user/personal?lang=en&token=${adminToken}`);
  await expect(page.getByTestId('user-menu')).toContainText(E2E.adminEmail);

  // The customer's link in the admin's tab: a question, and the token already gone from the address.
  await page.goto(`/manage/user/personal?token=${customerToken}`);
  const dialog = page.getByRole('dialog');
  await expect(dialog).toContainText('Replace the current session?');
  await expect(dialog).toContainText(`Signed in now as ${E2E.adminEmail}`);
  await expect(dialog).toContainText(`The link signs in as ${email}`);
  await expect(page).toHaveURL(/\/manage\/user\/personal$/);
  await keepScreenshot(page, 'session-switch-en');

  await page.getByTestId('session-switch-keep').click();
  await expect(dialog).toBeHidden();
  await expect(page.getByTestId('user-menu')).toContainText(E2E.adminEmail);
  expect(await storedToken(page)).toBe(adminToken);

  await page.goto(`/manage/user/personal?token=${customerToken}`);
  await confirmSessionSwitch(page);
  await expect(page.getByTestId('user-menu')).toContainText(email);
  expect(await storedToken(page)).toBe(customerToken);
  await expect(page).toHaveURL(/\/manage\/user\/personal$/);

  // No entry of the tab's history kept a token.
  for (let i = 0; i < 2; i += 1) {
    await page.goBack();
    expect(page.url()).not.toContain('token=');
  }
});

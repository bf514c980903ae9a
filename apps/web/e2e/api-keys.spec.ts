import { expect, test } from '@playwright/test';
import { E2E } from './e2e-env';
import { apiLogin, dialogOpened, keepScreenshot, openWithSession } from './helpers';

// Customer API keys (docs/api.md#programs): made on Personal info, the secret read from the dialog that shows it
// once, then used as a program would (Playwright's request context, as curl): a read route answers, a route
// needing another scope is refused naming it, and once the key is revoked in the console it is refused outright.
// What each scope opens, on both stores, is the server tests' to hold; this is the journey through the console.

test('a key made on Personal info reads the traffic, is refused proxies, and stops working once revoked', async ({ page, request }) => {
  // Made by the admin (as a distributor's saveuser does), not registered: the suite's registrations already use
  // the mail-code allowance of one address per hour, which this journey is not about.
  const adminToken = await apiLogin(request, E2E.adminEmail, E2E.adminPassword);
  const email = `api-keys-${Date.now()}@e2e.test`;
  const made = await request.post('/api/distribution/saveuser', { headers: { Authorization: `Bearer ${adminToken}` }, data: { email, password: 'ApiKeysPass123' } });
  expect(made.ok(), await made.text()).toBe(true);
  const token = await apiLogin(request, email, 'ApiKeysPass123');

  await openWithSession(page, `/manage/user/personal?lang=en&token=${token}`);
  const card = page.getByTestId('api-keys');
  await expect(card).toContainText('You have no API key yet.');
  await card.getByTestId('api-key-create').click();
  const form = page.locator('.ant-modal', { has: page.getByTestId('api-key-name-input') });
  await dialogOpened(form);
  await form.getByTestId('api-key-name-input').fill('e2e reader');
  // Read is ticked to begin with, and the only scope this key gets.
  await expect(form.getByTestId('api-key-scope-read')).toBeChecked();
  await expect(form.getByTestId('api-key-scope-proxies')).not.toBeChecked();
  await form.getByTestId('api-key-create-submit').click();

  const secretDialog = page.locator('.ant-modal', { has: page.getByTestId('api-key-secret-value') });
  await dialogOpened(secretDialog);
  const key = (await secretDialog.getByTestId('api-key-secret-value').innerText()).trim();
  expect(key.length).toBeGreaterThan(20);
  await expect(secretDialog.getByTestId('api-key-secret-curl')).toHaveText(`curl -H 'Authorization: Bearer ${key}' ${E2E.baseURL}/api/traffic`);
  await keepScreenshot(page, 'api-keys/secret-en-1440');
  await secretDialog.getByTestId('api-key-secret-done').click();
  // Shown once: gone from the page, and listed by its prefix alone.
  await expect(page.getByText(key)).toHaveCount(0);
  const row = card.locator('tr', { hasText: 'e2e reader' });
  const prefix = (await row.getByTestId('api-key-prefix').innerText()).replace(/…$/, '');
  expect(key.startsWith(prefix)).toBe(true);
  expect(prefix.length).toBeLessThan(key.length);

  const asProgram = { Authorization: `Bearer ${key}` };
  const traffic = await request.get('/api/traffic', { headers: asProgram });
  expect(traffic.status(), await traffic.text()).toBe(200);
  const proxies = await request.post('/api/proxy/dynamic', { headers: asProgram, data: { username: `key_${Date.now().toString(36)}`, password: 'Secret123' } });
  expect(proxies.status(), await proxies.text()).toBe(403);
  expect(((await proxies.json()) as { code: string }).code).toBe('SCOPE_REQUIRED');

  // The list says where the key was last used from: this test's own address.
  await page.reload();
  await expect(row.getByTestId('api-key-last-used')).toContainText('127.0.0.1');
  await keepScreenshot(page, 'api-keys/personal-en-1440');

  await row.getByTestId('api-key-revoke').click();
  await dialogOpened(page.locator('.ant-popconfirm', { has: page.getByTestId('api-key-revoke-ok') }));
  await page.getByTestId('api-key-revoke-ok').click();
  await expect(card).toContainText('You have no API key yet.');
  const revoked = await request.get('/api/traffic', { headers: asProgram });
  expect(revoked.status(), await revoked.text()).toBe(401);
  expect(((await revoked.json()) as { code: string }).code).toBe('API_KEY_INVALID');
});

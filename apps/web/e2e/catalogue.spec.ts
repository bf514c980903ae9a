import { expect, test } from '@playwright/test';
import { E2E } from './e2e-env';
import { apiLogin, apiRegister, confirmSessionSwitch, openWithSession } from './helpers';
import { gapsBelowMessages } from './layout-checks';

test('an admin adds a package on the Packages page and a customer finds it on Package Purchase', async ({ page, request }) => {
  const name = `Trial ${Date.now() % 100000} GB`;
  const adminToken = await apiLogin(request, E2E.adminEmail, E2E.adminPassword);
  await openWithSession(page, `/manage/manage/goods?token=${adminToken}`);
  await expect(page).toHaveTitle('Resi Console - Packages');

  await page.getByTestId('add-goods').click();
  const dialog = page.getByTestId('edit-goods');
  await dialog.getByTestId('name-en').fill(name);
  await dialog.getByTestId('name-zh-cn').fill(`试用 ${name}`);
  await dialog.getByTestId('name-zh').fill(`試用 ${name}`);
  await dialog.getByTestId('package-gb').fill('7');
  await dialog.getByTestId('package-price-input').fill('12.34');
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(dialog).toBeHidden();
  const row = page.getByTestId('catalogue-goods').locator('tr', { hasText: name });
  await expect(row).toContainText('7 GB');
  await expect(row).toContainText('$12.34');

  // A bad value is refused in the form and nothing is saved.
  await page.getByTestId('add-goods').click();
  await dialog.getByTestId('name-en').fill(`${name} broken`);
  await dialog.getByTestId('name-zh-cn').fill('坏');
  await dialog.getByTestId('name-zh').fill('壞');
  await dialog.getByTestId('package-gb').fill('0');
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(dialog.locator('.ant-form-item-explain-error').first()).toBeVisible();
  // The message keeps a gap to the next field's label (antd lets it sit flush); polled, as it slides in.
  const smallestGap = async () => {
    const gaps = await gapsBelowMessages(page);
    return gaps.length ? Math.min(...gaps) : -1; // no field found below: no gap either
  };
  await expect.poll(smallestGap, { message: 'gap under the message' }).toBeGreaterThanOrEqual(4);
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(page.getByTestId('catalogue-goods').locator('tr', { hasText: `${name} broken` })).toHaveCount(0);

  const customer = await apiRegister(`catalogue-${Date.now()}@e2e.test`, 'Customer123');
  await page.goto(`/manage/center/buy?token=${customer}`);
  // The tab holds the admin's session: the customer's link asks before switching.
  await confirmSessionSwitch(page);
  const card = page.locator('.package-card', { hasText: name });
  await expect(card).toContainText('7 GB');
  await expect(card.getByTestId('package-price')).toContainText('$12.34');
});

import { expect, test } from '@playwright/test';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { E2E } from './e2e-env';
import { apiLogin, dialogOpened, keepScreenshot, openWithSession } from './helpers';

// Proxies for programs (issue 23): on Get Proxy the customer allowlists this browser's address with one click,
// makes an extraction key and tries the link right there; the host:port lines it answers carry a curl with no
// password through the real gateway's port endpoints. Without the allowlist the link answers credential lines.
// The browser and the curl both come from 127.0.0.1, which this test lists and removes again.

const run = promisify(execFile);
const GB = 1024 ** 3;

test('a program gets in by its address: allowlist this browser, make a key, try the link, curl a port without a password', async ({ page, request }) => {
  // Made by the admin (as a distributor's saveuser does), not registered: the suite's registrations already
  // use the mail-code allowance of one address per hour, which this journey is not about.
  const adminToken = await apiLogin(request, E2E.adminEmail, E2E.adminPassword);
  const email = `programs-${Date.now()}@e2e.test`;
  const made = await request.post('/api/distribution/saveuser', { headers: { Authorization: `Bearer ${adminToken}` }, data: { email, password: 'ProgramPass123' } });
  expect(made.ok(), await made.text()).toBe(true);
  const userId = ((await made.json()) as { data: { id: number } }).data.id;
  const token = await apiLogin(request, email, 'ProgramPass123');
  const auth = { Authorization: `Bearer ${token}` };
  const recharged = await request.post('/api/manage/recharge', { headers: { Authorization: `Bearer ${adminToken}` }, data: { userId, bytes: GB, validityDays: 30, note: 'e2e programs' } });
  expect(recharged.ok(), await recharged.text()).toBe(true);
  const account = await request.post('/api/proxy/dynamic', { headers: auth, data: { username: `bot_${Date.now().toString(36)}`, password: 'Secret123' } });
  expect(account.ok(), await account.text()).toBe(true);

  await openWithSession(page, `/manage/center/proxy?lang=en&token=${token}`);
  const allowlist = page.getByTestId('allowlist');
  await expect(allowlist).toContainText('No address yet');
  const addMine = page.getByTestId('allowlist-add-mine');
  // The address is shown before it is saved.
  await expect(addMine).toHaveText('Add my current IP (127.0.0.1)');
  await addMine.click();
  const entry = allowlist.getByTestId('allowlist-entry');
  await expect(entry).toHaveAttribute('data-address', '127.0.0.1');

  const link = page.getByTestId('api-link');
  await expect(link.getByTestId('api-link-no-url')).toHaveText('Create a key to get the link.');
  await link.getByTestId('api-link-key').click();
  await expect(link.getByTestId('api-link-url')).toContainText('/api/extract?key=ek_');
  await expect(link.getByTestId('api-link-prefix')).toHaveText(/^ek_[0-9a-f]{6}…$/);
  await link.getByTestId('api-link-num').fill('2');
  await link.getByTestId('api-link-try').click();
  const answer = link.getByTestId('api-link-answer');
  await expect(answer).toHaveText(/^[^\s:@]+:\d+\n[^\s:@]+:\d+$/);
  await keepScreenshot(page, 'program-access/get-proxy-en-1440');
  const [first] = (await answer.innerText()).split('\n');
  const port = Number(first!.split(':')[1]);
  expect(port).toBeGreaterThanOrEqual(E2E.portRangeHttp[0]);
  expect(port).toBeLessThanOrEqual(E2E.portRangeHttp[1]);
  // The line as a program uses it: no credentials, the gateway knows the caller by its address.
  const { stdout } = await run('curl', ['-sSf', '--max-time', '10', '-x', `http://127.0.0.1:${port}`, `http://127.0.0.1:${E2E.originPort}/`]);
  expect(stdout).toContain('resi e2e origin');

  // Removed from the allowlist, the same link answers lines that carry the password.
  await entry.getByTestId('allowlist-remove').click();
  await dialogOpened(page.locator('.ant-popconfirm'));
  await page.locator('.ant-popconfirm').getByRole('button', { name: 'Remove' }).click();
  await expect(allowlist).toContainText('No address yet');
  await link.getByTestId('api-link-try').click();
  await expect(answer).toHaveText(/^bot_[a-z0-9]+-session-[a-z0-9]{8}-life-10:Secret123@[^\s:]+:\d+\nbot_/);
});

import { expect, test } from '@playwright/test';
import { createHmac } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { E2E } from './e2e-env';
import { apiLogin, dialogOpened, openWithSession, settled } from './helpers';

// Usage alerts and webhooks in Personal info (docs/api.md#webhooks): a threshold saved and read back after a reload;
// an endpoint registered to a real receiver on 127.0.0.1, its secret read from the dialog that shows it once; a paid
// order delivered to it signed with that secret; the delivery in the endpoint's log, and replayed from there. Retries,
// refusals and the destination guard are the server tests' to hold; this is the journey through the console.

interface Received {
  headers: IncomingHttpHeaders;
  body: string;
}

const received: Received[] = [];
let receiver: Server;
let receiverUrl = '';

test.beforeAll(async () => {
  receiver = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      received.push({ headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
      res.writeHead(200, { 'content-type': 'text/plain' }).end('thanks');
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/resi-hook`;
});

test.afterAll(async () => {
  await new Promise((resolve) => receiver.close(resolve));
});

/** What a receiver checks (docs/api.md#webhooks): `v1=` and the hex HMAC-SHA256 of "<timestamp>.<raw body>". */
function signatureOf(secret: string, delivery: Received): string {
  return `v1=${createHmac('sha256', secret).update(`${String(delivery.headers['x-resi-timestamp'])}.${delivery.body}`).digest('hex')}`;
}

test('an alert threshold is saved; a paid order reaches a webhook signed with its secret, and is replayed from the log', async ({ page, request }) => {
  // Made by the admin, not registered, as api-keys.spec.ts does: registrations share one mail-code allowance.
  const adminToken = await apiLogin(request, E2E.adminEmail, E2E.adminPassword);
  const email = `hooks-${Date.now()}@e2e.test`;
  const made = await request.post('/api/distribution/saveuser', { headers: { Authorization: `Bearer ${adminToken}` }, data: { email, password: 'HooksPass123' } });
  expect(made.ok(), await made.text()).toBe(true);
  const token = await apiLogin(request, email, 'HooksPass123');
  const asCustomer = { Authorization: `Bearer ${token}` };

  await openWithSession(page, `/manage/user/personal?lang=en&token=${token}`);
  await expect(page.getByTestId('notices-bell')).toBeVisible();

  // A second balance threshold, typed in GB.
  const alerts = page.getByTestId('alert-settings');
  await expect(alerts.getByTestId('alert-balanceGb')).toContainText('1 GB');
  await alerts.getByTestId('alert-balanceGb').click();
  await page.keyboard.type('5');
  await page.keyboard.press('Enter');
  // Closes the suggestions, which would lie over the Save button.
  await page.keyboard.press('Escape');
  const saved = page.waitForResponse((res) => res.url().endsWith('/api/user/alerts') && res.request().method() === 'POST');
  await alerts.getByTestId('alert-save').click();
  expect((await saved).ok()).toBe(true);
  await page.reload();
  await settled(page);
  await expect(page.getByTestId('alert-settings').getByTestId('alert-balanceGb')).toContainText('5 GB');
  const settings = await request.get('/api/user/alerts', { headers: asCustomer });
  expect(((await settings.json()) as { data: { balanceBytesLeft: number[] } }).data.balanceBytesLeft).toEqual([1024 ** 3, 5 * 1024 ** 3]);

  // The endpoint, and its secret from the dialog that shows it once.
  const card = page.getByTestId('webhooks');
  await expect(card).toContainText('You have no webhook endpoint yet.');
  await card.getByTestId('webhook-create').click();
  const form = page.locator('.ant-modal', { has: page.getByTestId('webhook-url-input') });
  await dialogOpened(form);
  await form.getByTestId('webhook-url-input').fill(receiverUrl);
  await form.getByTestId('webhook-event-order.paid').click();
  await form.getByTestId('webhook-create-submit').click();
  const secretDialog = page.locator('.ant-modal', { has: page.getByTestId('webhook-secret-value') });
  await dialogOpened(secretDialog);
  const secret = (await secretDialog.getByTestId('webhook-secret-value').innerText()).trim();
  expect(secret).toMatch(/^whsec_/);
  await secretDialog.getByTestId('webhook-secret-done').click();
  await expect(page.getByText(secret)).toHaveCount(0);
  const row = card.locator('tr', { hasText: receiverUrl });
  await expect(row.getByTestId('webhook-events')).toHaveText('order.paid');

  // An order paid with the sandbox, as the customer's program would buy it.
  const goods = (await (await request.get('/api/goods')).json()) as { data: { packages: { id: number; price: number }[] } };
  const cheapest = [...goods.data.packages].sort((a, b) => a.price - b.price)[0];
  expect(cheapest).toBeDefined();
  const bought = await request.post('/api/buy/dynamic', { headers: asCustomer, data: { goodsId: cheapest!.id, payMethod: 'sandbox' } });
  expect(bought.ok(), await bought.text()).toBe(true);
  const orderNo = ((await bought.json()) as { data: { order: { orderNo: string } } }).data.order.orderNo;
  const paid = await request.post(`/api/pay/sandbox/${orderNo}/pay`, { data: {} });
  expect(paid.ok(), await paid.text()).toBe(true);

  // The delivery job sends what is due every 5 seconds.
  await expect.poll(() => received.length, { timeout: 30_000 }).toBe(1);
  const first = received[0]!;
  expect(first.headers['x-resi-event']).toBe('order.paid');
  expect(first.headers['x-resi-signature']).toBe(signatureOf(secret, first));
  const event = JSON.parse(first.body) as { id: string; type: string; data: { order: { orderNo: string } } };
  expect(event.type).toBe('order.paid');
  expect(event.data.order.orderNo).toBe(orderNo);

  // In the endpoint's log, delivered; a replay reaches the receiver again with the same event, signed anew.
  await row.getByTestId('webhook-deliveries').click();
  const drawer = page.getByTestId('webhook-deliveries-drawer');
  await expect(drawer.getByTestId('delivery-status')).toHaveText(['Delivered']);
  await expect(drawer.getByTestId('delivery-code')).toHaveText('200');
  await drawer.locator('.ant-table-row-expand-icon').first().click();
  await expect(drawer.getByTestId('delivery-detail')).toContainText(orderNo);
  await expect(drawer.getByTestId('delivery-detail')).toContainText('thanks');
  await drawer.getByTestId('delivery-replay').first().click();
  await expect.poll(() => received.length, { timeout: 30_000 }).toBe(2);
  const again = received[1]!;
  expect((JSON.parse(again.body) as { id: string }).id).toBe(event.id);
  expect(again.headers['x-resi-signature']).toBe(signatureOf(secret, again));
  await expect(drawer.getByTestId('delivery-status')).toHaveText(['Delivered', 'Delivered']);
  await expect(drawer).toContainText(/Replay of #\d+/);
});

import { expect, test } from '@playwright/test';
import { apiRegister, openWithSession } from './helpers';

let token = '';
let endpoint = { host: '', httpPort: 0, socksPort: 0 };

test.beforeAll(async ({ request }) => {
  token = await apiRegister(`learn-${Date.now()}@e2e.test`, 'Customer123');
  const res = await request.get('/api/proxy/endpoint', { headers: { Authorization: `Bearer ${token}` } });
  expect(res.ok()).toBe(true);
  endpoint = ((await res.json()) as { data: typeof endpoint }).data;
});

test('a customer reads the knowledge base from the side menu, with this gateway in the examples', async ({ page }) => {
  await openWithSession(page, `/manage/center?token=${token}`);
  const menu = page.getByTestId('side-menu');
  await menu.getByText('Learn', { exact: true }).click();
  await menu.getByText('Knowledge Base', { exact: true }).click();
  await expect(page).toHaveURL(/\/manage\/learn\/knowledge$/);
  await expect(page.getByTestId('article-list')).toBeVisible();

  await page.getByTestId('article-link-getting-started').click();
  await expect(page).toHaveURL(/\/manage\/learn\/knowledge\?article=getting-started$/);
  const article = page.getByTestId('article-view');
  await expect(page.getByTestId('article-title')).toHaveText('Getting started: from purchase to your first request');
  // Placeholders are filled with the running gateway's address.
  await expect(article).toContainText(`${endpoint.host}:${endpoint.httpPort}`);
  await expect(article).not.toContainText('{{');

  await page.goBack();
  await expect(page).toHaveURL(/\/manage\/learn\/knowledge$/);
  await expect(page.getByTestId('article-list')).toBeVisible();

  await page.goto('/manage/learn/knowledge?article=no-such-article');
  await expect(page.getByTestId('article-not-found')).toBeVisible();
});

test('the FAQ opens a question, the blog lists its posts, and the toolbox converts proxy lines', async ({ page }) => {
  await openWithSession(page, `/manage/learn/faq?token=${token}`);
  await page.getByTestId('faq-question-payment-methods').click();
  await expect(page).toHaveURL(/article=payment-methods/);
  await expect(page.getByTestId('faq-list')).toContainText('USDT');

  await page.goto('/manage/learn/blog');
  await expect(page.getByTestId('article-list').locator('[data-testid^="article-link-"]')).toHaveCount(2);

  await page.goto('/manage/toolbox');
  const converter = page.getByTestId('line-converter');
  const { host, httpPort } = endpoint;
  await converter.getByTestId('converter-input').fill(`${host}:${httpPort}:alice01-country-us:secret\nnot a proxy line`);
  await converter.getByText('user:pass@host:port', { exact: true }).click();
  await expect(converter.getByTestId('converter-output')).toContainText(`alice01-country-us:secret@${host}:${httpPort}`);
  await expect(converter.getByTestId('converter-errors')).toContainText('not a proxy line');
});

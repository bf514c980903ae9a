import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedCatalogue } from '../../../test/commerce';
import { text } from '../../../test/i18n';
import { DIALECTS, type TestApp, createTestApp } from '../../../test/test-app';

// The pages' templates as the console's build copies them (apps/web/public/legal → dist/legal).
const webPublic = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../../web/public');

describe.each(DIALECTS)('the tutorial, terms and privacy notice from the operator’s settings on %s', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(dialect, { APP_NAME: 'Acme Proxy', OPERATOR_NAME: 'Acme & Co <Ltd>', OPERATOR_CONTACT: 'help@acme.example', SUPPORT_URL: 'https://help.acme.example/chat' }, { webDist: webPublic });
  });
  afterAll(() => t.close());

  const page = async (file: string) => {
    const res = await t.app.inject({ method: 'GET', url: `/manage/legal/${file}` });
    return { status: res.statusCode, html: res.body, type: res.headers['content-type'], cache: res.headers['cache-control'] };
  };

  it('name only the payment methods checkout offers now, in the page’s language', async () => {
    const before = await page('tutorial.en.html');
    expect(before.html).toContain(`You can pay with ${text('en', 'legal.noPayMethods')}.`);
    await seedCatalogue(t);
    const en = await page('tutorial.en.html');
    expect([en.status, en.type, en.cache]).toEqual([200, 'text/html; charset=utf-8', 'no-cache']);
    expect(en.html).toContain('You can pay with Sandbox.');
    expect(en.html).not.toMatch(/USDT|AliPay|credit card/i);
    expect((await page('tutorial.zh-cn.html')).html).toContain(`可用的支付方式：${text('zh-cn', 'words.payMethod.sandbox')}。`);
    // Support is the operator's own link.
    expect(en.html).toContain(`contact <a href="https://help.acme.example/chat">${text('en', 'legal.supportLink')}</a>.`);
  });

  it('name the operator and how to reach them, escaped as HTML, in every language', async () => {
    expect((await page('terms.en.html')).html).toContain('Acme Proxy is operated by Acme &#38; Co &#60;Ltd&#62;. You can reach us at <a href="mailto:help@acme.example">help@acme.example</a>.');
    expect((await page('privacy.zh.html')).html).toContain('Acme Proxy 由 Acme &#38; Co &#60;Ltd&#62; 營運');
    for (const name of ['terms', 'privacy', 'tutorial']) {
      for (const lang of ['en', 'zh-cn', 'zh']) {
        const filled = await page(`${name}.${lang}.html`);
        expect(filled.status).toBe(200);
        expect(filled.html, `${name}.${lang}`).not.toMatch(/{{\w+}}|<Ltd>/);
      }
    }
  });

  it('serve nothing else from the folder', async () => {
    expect((await page('terms.fr.html')).status).toBe(404);
    expect((await page('..%2F..%2Fpackage.json')).status).toBe(404);
  });
});

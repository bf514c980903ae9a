import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { text } from '../../test/i18n';
import { type TestApp, createTestApp } from '../../test/test-app';

const INDEX = '<!doctype html><html><body><div id="root"></div><script src="/manage/assets/app-123.js"></script></body></html>';
const SCRIPT = 'console.log("app-123");';
const SECRET = 'TOP-SECRET-OUTSIDE-WEB-DIST';

// Static files touch no data: one dialect is enough here.
describe('the web console under /manage/', () => {
  let root: string;
  let t: TestApp;
  beforeAll(async () => {
    // root/secret.txt sits beside the served directory root/dist and must never be reachable.
    root = mkdtempSync(path.join(tmpdir(), 'resi-spa-'));
    const dist = path.join(root, 'dist');
    mkdirSync(path.join(dist, 'assets'), { recursive: true });
    writeFileSync(path.join(dist, 'index.html'), INDEX);
    writeFileSync(path.join(dist, 'assets', 'app-123.js'), SCRIPT);
    // What the build writes beside each text asset (vite-plugin-compression2).
    for (const [file, body] of [['assets/app-123.js', SCRIPT], ['index.html', INDEX]] as const) {
      writeFileSync(path.join(dist, `${file}.br`), brotliCompressSync(body));
      writeFileSync(path.join(dist, `${file}.gz`), gzipSync(body));
    }
    writeFileSync(path.join(dist, 'favicon.ico'), 'icon');
    writeFileSync(path.join(root, 'secret.txt'), SECRET);
    t = await createTestApp('sqlite', {}, { webDist: dist });
  });
  afterAll(async () => {
    await t.close();
    rmSync(root, { recursive: true, force: true });
  });

  const get = (url: string) => t.app.inject({ method: 'GET', url });

  it.each(['/manage/', '/manage/center/buy', '/manage/user/login?lang=zh', '/manage/center/rotatingResidential'])('answers %s with index.html', async (url) => {
    const res = await get(url);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    expect(res.body).toBe(INDEX);
    expect(res.headers['cache-control']).toBe('no-cache');
  });

  it.each(['/manage/assets/app-old.js', '/manage/assets/index-9f8e7d.css', '/manage/favicon.png', '/manage/center/missing.map'])(
    'answers a missing file %s with 404, not index.html',
    async (url) => {
      const res = await t.app.inject({ method: 'GET', url, headers: { 'api-lang': 'zh' } });
      expect(res.statusCode).toBe(404);
      expect(res.body).not.toContain('<div id="root">');
      expect(res.json()).toEqual({ code: 'NOT_FOUND', message: text('zh', 'errors.NOT_FOUND') });
    },
  );

  it('still answers client routes with dots only inside, such as a version in a path, with index.html', async () => {
    const res = await get('/manage/v1.2/center');
    expect(res.statusCode).toBe(200);
    expect(res.body).toBe(INDEX);
  });

  it('serves a hashed asset with a year-long immutable cache', async () => {
    const res = await get('/manage/assets/app-123.js');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/javascript/);
    expect(res.body).toBe(SCRIPT);
    expect(res.headers['cache-control']).toMatch(/max-age=31536000/);
    expect(res.headers['cache-control']).toMatch(/immutable/);
  });

  it('sends the brotli or gzip copy the client accepts, the file itself otherwise, and says it varies', async () => {
    const asset = (encoding?: string) => t.app.inject({ method: 'GET', url: '/manage/assets/app-123.js', headers: encoding ? { 'accept-encoding': encoding } : {} });
    const br = await asset('gzip, deflate, br');
    expect([br.statusCode, br.headers['content-encoding'], br.headers['content-type']]).toEqual([200, 'br', 'application/javascript; charset=utf-8']);
    expect(brotliDecompressSync(br.rawPayload).toString()).toBe(SCRIPT);
    expect(br.headers.vary).toContain('accept-encoding');
    expect(br.headers['cache-control']).toContain('immutable');
    const gz = await asset('gzip');
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gz.rawPayload).toString()).toBe(SCRIPT);
    const plain = await asset();
    expect([plain.headers['content-encoding'], plain.body]).toEqual([undefined, SCRIPT]);
    expect(plain.headers.vary).toContain('accept-encoding');

    const page = await t.app.inject({ method: 'GET', url: '/manage/center', headers: { 'accept-encoding': 'br' } });
    expect([page.headers['content-encoding'], page.headers['cache-control'], page.headers['content-type']]).toEqual(['br', 'no-cache', 'text/html; charset=utf-8']);
    expect(brotliDecompressSync(page.rawPayload).toString()).toBe(INDEX);
    expect(page.headers.vary).toContain('accept-encoding');
  });

  it('serves other files without the long cache', async () => {
    const res = await get('/manage/favicon.ico');
    expect(res.statusCode).toBe(200);
    expect(res.body).toBe('icon');
    expect(res.headers['cache-control']).not.toMatch(/immutable/);
  });

  it('redirects / and /manage to /manage/', async () => {
    for (const url of ['/', '/manage']) {
      const res = await get(url);
      expect(res.statusCode, url).toBe(302);
      expect(res.headers.location).toBe('/manage/');
    }
  });

  it('keeps the security headers on the console', async () => {
    const res = await get('/manage/center');
    expect(res.headers['content-security-policy']).toContain("script-src 'self'");
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    // The headers that concern documents only: API answers leave them out (http/app.ts), pages keep them.
    expect(res.headers['cross-origin-opener-policy']).toBe('same-origin');
    expect(res.headers['origin-agent-cluster']).toBe('?1');
    const api = await get('/api/site');
    expect(api.headers['cross-origin-opener-policy']).toBeUndefined();
    expect(api.headers['x-frame-options']).toBe('SAMEORIGIN');
    // A built asset carries only the two that act on a script or stylesheet.
    const asset = await get('/manage/assets/app-123.js');
    const security = ['content-security-policy', 'cross-origin-opener-policy', 'cross-origin-resource-policy', 'origin-agent-cluster', 'referrer-policy', 'strict-transport-security', 'x-content-type-options', 'x-dns-prefetch-control', 'x-download-options', 'x-frame-options', 'x-permitted-cross-domain-policies', 'x-xss-protection'];
    expect(security.filter((h) => h in asset.headers)).toEqual(['cross-origin-resource-policy', 'x-content-type-options']);
    expect(asset.headers['x-content-type-options']).toBe('nosniff');
  });

  it.each([
    '/manage/..%2f..%2fetc/passwd',
    '/manage/..%2fsecret.txt',
    '/manage/assets/..%2f..%2fsecret.txt',
    '/manage/..%252fsecret.txt',
    '/manage/%2e%2e/secret.txt',
    '/manage/%2e%2e%2fsecret.txt',
    '/manage/assets/%2e%2e/%2e%2e/secret.txt',
    '/manage/..%5csecret.txt',
    `/manage/${encodeURIComponent(path.join(tmpdir(), 'x', '..'))}%2fsecret.txt`,
    '/manage/%2fetc%2fpasswd',
    '/manage//etc/passwd',
    '/manage/../secret.txt',
    '/manage/assets/../../secret.txt',
  ])('never serves a file outside the console for %s', async (url) => {
    const res = await get(url);
    expect(res.statusCode).not.toBe(500);
    expect(res.body).not.toContain(SECRET);
    expect(res.body).not.toMatch(/root:.*:0:0:/);
    if (res.statusCode === 200) expect(res.body).toBe(INDEX);
  });

  it('answers malformed percent-encoding without a server error', async () => {
    for (const url of ['/manage/%E0%A4%A', '/manage/%25E0%25A4', '/manage/assets/%ZZ.js']) {
      const res = await get(url);
      expect(res.statusCode, url).toBeLessThan(500);
      expect(res.body).not.toContain(SECRET);
    }
  });
});

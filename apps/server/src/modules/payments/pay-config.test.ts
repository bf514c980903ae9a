import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call } from '../../../test/auth-flows';
import { seedCatalogue, signedIn } from '../../../test/commerce';
import { DIALECTS, type TestApp, createTestApp } from '../../../test/test-app';
import { SEAL_LABELS, SealedBox } from '../../lib/sealed-box';
import { AuditLogRepository } from '../audit/audit-log-repository';
import { PayConfigService } from './pay-config-service';

const SECRET = 'sk_test_51Hsupersecretvalue9876';

describe.each(DIALECTS)('payment settings on %s', (dialect) => {
  let t: TestApp;
  let admin: string;
  beforeAll(async () => {
    t = await createTestApp(dialect);
    await seedCatalogue(t);
    admin = (await signedIn(t, 'admin')).token;
  });
  afterAll(() => t.close());

  const save = (body: Record<string, unknown>, lang?: string) => call(t.app, 'POST', '/api/manage/pay-config', { token: admin, body, lang });

  it('lists every method; the demo has the sandbox on', async () => {
    const res = await call(t.app, 'GET', '/api/manage/pay-config', { token: admin });
    expect(res.body.data.methods.map((m: { method: string }) => m.method)).toEqual(['card', 'alipay', 'usdt-trc20', 'manual', 'sandbox']);
    expect(res.body.data.methods.find((m: { method: string }) => m.method === 'sandbox')).toMatchObject({ enabled: true, available: true });
  });

  it('keeps secrets encrypted at rest, answers them masked, and never writes them to the audit log', async () => {
    const res = await save({ method: 'card', enabled: false, settings: { currency: 'USD' }, secrets: { secretKey: SECRET } });
    expect(res.status).toBe(200);
    expect(res.body.data.secrets).toEqual({ secretKey: '••••9876', webhookSecret: null });
    const row = await t.db.db.selectFrom('pay_configs').selectAll().where('method', '=', 'card').executeTakeFirstOrThrow();
    expect(row.secrets).toMatch(/^v1\./);
    expect(row.secrets).not.toContain('supersecret');
    const listed = JSON.stringify((await call(t.app, 'GET', '/api/manage/pay-config', { token: admin })).body);
    expect(listed).not.toContain('supersecret');
    const audit = await t.db.db.selectFrom('audit_logs').selectAll().where('target', '=', 'pay-config:card').execute();
    expect(audit).toHaveLength(1);
    expect(JSON.stringify(audit)).not.toContain('supersecret');
  });

  it('an absent secret is kept, an empty one clears it', async () => {
    await save({ method: 'card', enabled: false, settings: { currency: 'EUR' }, secrets: { webhookSecret: 'whsec_abcdefghijklmnop' } });
    let cfg = (await call(t.app, 'GET', '/api/manage/pay-config', { token: admin })).body.data.methods.find((m: { method: string }) => m.method === 'card');
    expect(cfg).toMatchObject({ settings: { currency: 'EUR' }, secrets: { secretKey: '••••9876', webhookSecret: '••••mnop' } });
    await save({ method: 'card', enabled: false, secrets: { secretKey: '' } });
    cfg = (await call(t.app, 'GET', '/api/manage/pay-config', { token: admin })).body.data.methods.find((m: { method: string }) => m.method === 'card');
    expect(cfg.secrets).toEqual({ secretKey: null, webhookSecret: '••••mnop' });
  });

  it('refuses unknown fields and enabling an incomplete method, changing nothing', async () => {
    const before = await t.db.db.selectFrom('pay_configs').selectAll().orderBy('method').execute();
    const unknown = await save({ method: 'manual', enabled: true, settings: { instructionsEn: 'x', iban: 'DE00' } });
    expect(unknown.status).toBe(400);
    expect(unknown.body.message).toContain('iban');
    const incomplete = await save({ method: 'manual', enabled: true, settings: { instructionsEn: '  ' } }, 'zh');
    expect(incomplete.status).toBe(400);
    expect(incomplete.body).toMatchObject({ code: 'PAY_METHOD_INCOMPLETE', message: '請先填寫該支付方式的必填設定再啟用。' });
    expect((await save({ method: 'bitcoin', enabled: true })).status).toBe(400);
    expect(await t.db.db.selectFrom('pay_configs').selectAll().orderBy('method').execute()).toEqual(before);
  });

  it('turning a method off removes it from the buy page at once', async () => {
    const { token } = await signedIn(t);
    expect((await call(t.app, 'GET', '/api/pay/methods', { token })).body.data.methods).toContain('sandbox');
    await save({ method: 'sandbox', enabled: false });
    expect((await call(t.app, 'GET', '/api/pay/methods', { token })).body.data.methods).not.toContain('sandbox');
    expect((await call(t.app, 'POST', '/api/buy/dynamic', { token, body: { goodsId: 1, payMethod: 'sandbox' } })).body.code).toBe('PAY_METHOD_UNAVAILABLE');
    await save({ method: 'sandbox', enabled: true });
  });

  it('is for admins only', async () => {
    const { token } = await signedIn(t);
    expect((await call(t.app, 'GET', '/api/manage/pay-config', { token })).status).toBe(403);
    expect((await call(t.app, 'POST', '/api/manage/pay-config', { token, body: { method: 'sandbox', enabled: true } })).status).toBe(403);
  });
});

describe.each(DIALECTS)('payment secrets after APP_SECRET changed on %s', (dialect) => {
  let t: TestApp;
  let admin: string;
  let customer: string;
  const lines: string[] = [];
  const tronHeaders: Record<string, string | string[] | undefined>[] = [];
  // A TRON API with no transfers: the watcher must get this far and ask it without an API key.
  const tron = createServer((req, res) => {
    tronHeaders.push(req.headers);
    res.setHeader('content-type', 'application/json');
    res.end(JSON.stringify({ data: [], success: true, meta: {} }));
  });
  const KEYS = { secretKey: 'sk_test_oldsecretkey12345678', webhookSecret: 'whsec_oldwebhooksecret1234' };

  beforeAll(async () => {
    await new Promise<void>((ok) => tron.listen(0, '127.0.0.1', ok));
    t = await createTestApp(dialect, {}, { log: (line) => lines.push(line) });
    await seedCatalogue(t);
    admin = (await signedIn(t, 'admin')).token;
    customer = (await signedIn(t)).token;
    const save = (body: Record<string, unknown>) => call(t.app, 'POST', '/api/manage/pay-config', { token: admin, body });
    expect((await save({ method: 'card', enabled: true, settings: {}, secrets: KEYS })).status).toBe(200);
    const apiBase = `http://127.0.0.1:${(tron.address() as AddressInfo).port}`;
    expect((await save({ method: 'usdt-trc20', enabled: true, settings: { address: 'TXYZopYRdj2D9XRtbG411XZZ3kM5VkAeBf', apiBase }, secrets: { apiKey: 'tron-old-api-key-0001' } })).status).toBe(200);
    // What a new APP_SECRET does to the stored rows: sealed under a key this server no longer derives.
    const other = new SealedBox('a-different-app-secret-of-enough-length', SEAL_LABELS.payConfig);
    for (const [method, secrets] of [['card', KEYS], ['usdt-trc20', { apiKey: 'tron-old-api-key-0001' }]] as const) {
      await t.db.db.updateTable('pay_configs').set({ secrets: other.seal(JSON.stringify(secrets)) }).where('method', '=', method).execute();
    }
  });
  afterAll(async () => {
    await t.close();
    await new Promise((ok) => tron.close(ok));
  });

  it('treats the undecryptable secrets as unset: the method is not offered and nothing answers 500', async () => {
    const methods = await call(t.app, 'GET', '/api/pay/methods', { token: customer });
    expect(methods.status).toBe(200);
    expect(methods.body.data.methods).toContain('sandbox');
    expect(methods.body.data.methods).not.toContain('card');
    const buy = await call(t.app, 'POST', '/api/buy/dynamic', { token: customer, body: { goodsId: 1, payMethod: 'card' } });
    expect(buy.status).toBe(400);
    expect(buy.body.code).toBe('PAY_METHOD_UNAVAILABLE');
    const notify = await t.app.inject({ method: 'POST', url: '/api/pay/notify/card', headers: { 'content-type': 'application/json', 'stripe-signature': 't=1,v1=00' }, payload: '{}' });
    expect(notify.statusCode).toBe(400);
  });

  it('shows the admin which secrets must be entered again, and re-entering them brings the method back', async () => {
    const list = await call(t.app, 'GET', '/api/manage/pay-config', { token: admin });
    expect(list.status).toBe(200);
    const card = list.body.data.methods.find((m: { method: string }) => m.method === 'card');
    expect(card).toMatchObject({ enabled: true, needsReentry: true, secrets: { secretKey: null, webhookSecret: null } });
    expect(list.body.data.methods.find((m: { method: string }) => m.method === 'sandbox')).toMatchObject({ needsReentry: false });

    const saved = await call(t.app, 'POST', '/api/manage/pay-config', { token: admin, body: { method: 'card', enabled: true, secrets: { secretKey: 'sk_test_newsecretkey87654321', webhookSecret: 'whsec_newwebhooksecret4321' } } });
    expect(saved.status).toBe(200);
    expect(saved.body.data).toMatchObject({ needsReentry: false, secrets: { secretKey: '••••4321', webhookSecret: '••••4321' } });
    expect((await call(t.app, 'GET', '/api/pay/methods', { token: customer })).body.data.methods).toContain('card');
  });

  it('lets the USDT watcher poll without the lost API key instead of failing', async () => {
    const res = await t.app.usdtWatcher.pollOnce();
    expect(res).toEqual({ seen: 0, credited: 0, review: 0 });
    expect(tronHeaders.length).toBeGreaterThan(0);
    expect(tronHeaders.every((h) => h['tron-pro-api-key'] === undefined)).toBe(true);
  });

  it('logs a warning per method that names no secret', () => {
    const warnings = lines.map((l) => JSON.parse(l) as { level: number; msg: string; method?: string }).filter((l) => l.level === 40 && /cannot be decrypted/.test(l.msg));
    expect(warnings.map((w) => w.method).sort()).toEqual(['card', 'usdt-trc20']);
    const all = lines.join('\n');
    for (const secret of [KEYS.secretKey, KEYS.webhookSecret, 'tron-old-api-key-0001']) expect(all).not.toContain(secret);
  });
});

describe('the sandbox in production', () => {
  let t: TestApp;
  beforeAll(async () => {
    // Production refuses test-only switches, so this app has no captcha answer and is driven directly.
    t = await createTestApp('sqlite', { NODE_ENV: 'production', CAPTCHA_TEST_ANSWER: '' });
    await seedCatalogue(t);
  });
  afterAll(() => t.close());

  it('is never offered, even when its setting is on, and its page does not exist', async () => {
    const service = new PayConfigService(t.db.db, t.clock, new AuditLogRepository(t.db.db, t.clock), t.app.payments.providers, t.config.APP_SECRET, true);
    expect(await service.enabledMethods()).not.toContain('sandbox');
    expect((await service.list()).find((m) => m.method === 'sandbox')).toMatchObject({ enabled: true, available: false });
    await expect(service.save({ method: 'sandbox', enabled: true, settings: {}, secrets: {} }, { id: 1, ip: null })).rejects.toMatchObject({ code: 'PAY_METHOD_UNAVAILABLE' });
    const order = await t.app.inject({ method: 'GET', url: '/api/pay/sandbox/D20260101000000000001' });
    expect(order.statusCode).toBe(404);
  });
});

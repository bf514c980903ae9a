import { createHmac } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GIB } from '@resi/contract';
import { call } from '../../../test/auth-flows';
import { signedIn } from '../../../test/commerce';
import { HOST, basic, connectTunnel, startHttpOrigin, waitFor } from '../../../test/gateway-fixtures';
import { text } from '../../../test/i18n';
import { parseMail, startSmtpSink } from '../../../test/smtp-sink';
import { PROXY_PASSWORD, enableDirectEgress, gatewayCustomer, startTestGateway } from '../../../test/store-gateway-kit';
import { DIALECTS, type TestApp, createTestApp } from '../../../test/test-app';
import type { StoreGateway } from '../../gateway/store/store-gateway';

const KiB = 1024;
/** Timers that never fire: the test flushes the gateway and runs the alerts job itself. */
const NEVER = 3_600_000;

/*
 * Usage alerts (docs/business-rules.md#usage-alerts) under real gateway traffic on both stores: bytes carried
 * through the gateway, flushed to the store, measured by the alerts job; each crossing once, mailed over SMTP
 * in the customer's language, shown as a notice until read, re-armed by a top-up or a raised cap.
 */
describe.each(DIALECTS)('usage alerts on %s', (dialect) => {
  let t: TestApp;
  let admin: string;
  let web: Awaited<ReturnType<typeof startHttpOrigin>>;
  let g: StoreGateway;
  let sink: Awaited<ReturnType<typeof startSmtpSink>>;
  /** A real webhook receiver: every POST it got, with its headers and body. */
  const received: { headers: http.IncomingHttpHeaders; body: string }[] = [];
  let receiver: http.Server;

  beforeAll(async () => {
    sink = await startSmtpSink();
    receiver = http.createServer((req, res) => {
      let body = '';
      req.on('data', (c: Buffer) => (body += c.toString('utf8')));
      req.on('end', () => {
        received.push({ headers: req.headers, body });
        res.writeHead(204).end();
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, HOST, resolve));
    t = await createTestApp(dialect, { SMTP_URL: sink.url });
    admin = (await signedIn(t, 'admin')).token;
    await enableDirectEgress(t, admin);
    web = await startHttpOrigin();
    g = await startTestGateway(t, { refreshMs: 200, flushMs: NEVER, enforceMs: NEVER });
  });
  afterAll(async () => {
    await g?.stop();
    await web?.close();
    await t?.close();
    await sink?.close();
    await new Promise((resolve) => receiver?.close(resolve));
  });

  /** Downloads `bytes` through the gateway as `username`, then writes the gateway's count to the store. */
  async function use(username: string, bytes: number): Promise<void> {
    const r = await connectTunnel(g.gateway.httpPort, `${HOST}:${web.port}`, basic(username, PROXY_PASSWORD));
    expect(r.status).toBe(200);
    r.socket.write(`GET /bytes/${bytes} HTTP/1.1\r\nHost: origin\r\nConnection: close\r\n\r\n`);
    await new Promise<void>((resolve) => (r.socket as net.Socket).once('close', () => resolve()).resume());
    await waitFor(() => g.gateway.liveConnections() === 0, 5000, 'the gateway to see the close');
    await g.gateway.flush();
  }
  /** How the gateway answers a new tunnel of `username` (status and refusal); the tunnel is closed again. */
  async function admitted(username: string): Promise<string> {
    const r = await connectTunnel(g.gateway.httpPort, `${HOST}:${web.port}`, basic(username, PROXY_PASSWORD));
    r.socket.destroy();
    return `${r.status} ${r.headers['x-gateway-reason'] ?? ''}`.trim();
  }
  const check = () => t.app.jobs.tickNow('usage_alerts');
  const mailsTo = (email: string) => sink.messages.filter((m) => m.to.includes(email)).map((m) => parseMail(m.raw));
  const notices = async (token: string) => (await call(t.app, 'GET', '/api/user/notices', { token })).body.data as { items: { id: number; kind: string; threshold: number }[]; unread: number };

  it('settings: defaults, saved lists replace the old, bad thresholds refused in the caller\u2019s language and nothing changed', async () => {
    const { token } = await signedIn(t);
    expect((await call(t.app, 'GET', '/api/user/alerts', { token })).body.data).toEqual({ balanceBytesLeft: [GIB], balancePercentLeft: [], accountCapPercent: [80, 100] });
    const saved = await call(t.app, 'POST', '/api/user/alerts', { token, body: { balancePercentLeft: [20, 10, 20] } });
    expect(saved.body.data).toEqual({ balanceBytesLeft: [GIB], balancePercentLeft: [10, 20], accountCapPercent: [80, 100] });
    for (const [body, key] of [
      [{ accountCapPercent: [0] }, 'validation.alertCapPercent'],
      [{ balancePercentLeft: [100] }, 'validation.alertPercentLeft'],
      [{ balanceBytesLeft: [1.5] }, 'validation.alertBytes'],
      [{ accountCapPercent: [1, 2, 3, 4, 5, 6] }, 'validation.alertThresholdsMax'],
    ] as const) {
      const res = await call(t.app, 'POST', '/api/user/alerts', { token, body, lang: 'zh' });
      expect([res.status, res.body.code]).toEqual([400, 'VALIDATION_FAILED']);
      expect(res.body.message).toContain(text('zh', key));
    }
    expect((await call(t.app, 'GET', '/api/user/alerts', { token })).body.data.balancePercentLeft).toEqual([10, 20]);
  });

  it('a balance passing 80 % used under real traffic: one notice and one e-mail in the customer\u2019s language, not repeated until topped up', async () => {
    const c = await gatewayCustomer(t, admin, [[200 * KiB, 30]]);
    await t.db.db.updateTable('users').set({ lang: 'zh-cn' }).where('id', '=', c.user.id).execute();
    await call(t.app, 'POST', '/api/user/alerts', { token: c.token, body: { balanceBytesLeft: [], balancePercentLeft: [20], accountCapPercent: [] } });
    const hook = await call(t.app, 'POST', '/api/user/webhooks', {
      token: c.token,
      body: { url: `http://${HOST}:${(receiver.address() as AddressInfo).port}/hooks/${c.user.id}`, events: ['usage.threshold', 'balance.empty'] },
    });
    expect(hook.status).toBe(200);
    const secret = hook.body.data.secret as string;
    const hooksOf = () => received.filter((r) => r.headers['x-resi-event'] === 'usage.threshold' && r.headers['x-resi-delivery'] !== undefined && (JSON.parse(r.body) as { data: { notice: { id: number } } }).data.notice.id > 0);

    await use(c.username, 100 * KiB);
    expect(await check()).toBeUndefined();
    expect((await notices(c.token)).items).toEqual([]);
    // Past 80 % of the 200 KiB purchase.
    await use(c.username, 70 * KiB);
    await check();
    await check();
    const after = await notices(c.token);
    expect(after.items.map((n) => [n.kind, n.threshold])).toEqual([['balance.percentLeft', 20]]);
    expect(after.unread).toBe(1);
    const mails = mailsTo(c.user.email);
    expect(mails).toHaveLength(1);
    expect(mails[0]!.subject).toBe(text('zh-cn', 'mail.alert.balance.percentLeft.subject', { app: t.config.APP_NAME, threshold: '20' }));
    // And one signed webhook, with the notice it stands for.
    await t.app.jobs.tickNow('webhook_delivery');
    await waitFor(() => hooksOf().length > 0, 5000, 'the webhook');
    await t.app.jobs.tickNow('webhook_delivery');
    expect(hooksOf()).toHaveLength(1);
    const delivery = hooksOf()[0]!;
    const stamp = String(delivery.headers['x-resi-timestamp']);
    expect(delivery.headers['x-resi-signature']).toBe(`v1=${createHmac('sha256', secret).update(`${stamp}.${delivery.body}`).digest('hex')}`);
    expect(JSON.parse(delivery.body)).toMatchObject({ type: 'usage.threshold', data: { notice: { id: after.items[0]!.id, kind: 'balance.percentLeft', threshold: 20 } } });

    // More use below the line: still one.
    await use(c.username, 5 * KiB);
    await check();
    expect(mailsTo(c.user.email)).toHaveLength(1);

    // Read: it leaves the unread count; another customer cannot mark it.
    const other = await signedIn(t);
    expect((await call(t.app, 'POST', `/api/user/notices/${after.items[0]!.id}/read`, { token: other.token, body: {} })).status).toBe(404);
    expect((await call(t.app, 'POST', `/api/user/notices/${after.items[0]!.id}/read`, { token: c.token, body: {} })).status).toBe(200);
    expect((await notices(c.token)).unread).toBe(0);

    // A top-up above the line re-arms it; the next crossing is told again.
    await call(t.app, 'POST', '/api/manage/recharge', { token: admin, body: { userId: c.user.id, bytes: 100 * KiB, validityDays: 30, note: 'top-up' } });
    await check();
    expect((await t.db.db.selectFrom('alert_crossings').selectAll().where('user_id', '=', c.user.id).execute())).toEqual([]);
    await waitFor(() => (g.cache.allowance(c.accountId)?.balance ?? 0) > 100 * KiB, 5000, 'the gateway to see the top-up');
    // The line is now 20 % of the top-up (the last purchase): 20 KiB of the 125 KiB left.
    await use(c.username, 110 * KiB);
    await check();
    expect(mailsTo(c.user.email)).toHaveLength(2);
  });

  it('an account at its cap: 80 % and 100 % told once each; paused at the cap it is refused, set to go on it carries on', async () => {
    const c = await gatewayCustomer(t, admin, [[10 * 1024 * KiB, 30]]);
    await call(t.app, 'POST', '/api/user/alerts', { token: c.token, body: { balanceBytesLeft: [] } });
    expect((await call(t.app, 'PUT', `/api/proxy/dynamic/${c.accountId}`, { token: c.token, body: { limitBytes: 100 * KiB } })).status).toBe(200);
    await use(c.username, 85 * KiB);
    await check();
    expect((await notices(c.token)).items.map((n) => [n.kind, n.threshold])).toEqual([['account.cap', 80]]);
    await use(c.username, 20 * KiB);
    await check();
    expect((await notices(c.token)).items.map((n) => [n.kind, n.threshold])).toEqual([
      ['account.cap', 100],
      ['account.cap', 80],
    ]);
    const mails = mailsTo(c.user.email);
    expect(mails).toHaveLength(2);
    expect(mails[1]!.text).toContain(text('en', 'mail.alert.paused'));
    await waitFor(async () => (await admitted(c.username)) === '403 ACCOUNT_CAP', 5000, 'the cap to refuse');

    // Going on past the cap: admitted again, still no repeat of the crossings.
    const res = await call(t.app, 'PUT', `/api/proxy/dynamic/${c.accountId}`, { token: c.token, body: { pauseAtCap: false } });
    expect(res.body.data.pauseAtCap).toBe(false);
    await waitFor(async () => (await admitted(c.username)) === '200', 5000, 'the account to go on');
    await waitFor(() => g.gateway.liveConnections() === 0, 5000, 'the probes to close');
    await check();
    expect(mailsTo(c.user.email)).toHaveLength(2);

    // A raised cap re-arms both.
    await call(t.app, 'PUT', `/api/proxy/dynamic/${c.accountId}`, { token: c.token, body: { limitBytes: 1024 * KiB } });
    await check();
    expect(await t.db.db.selectFrom('alert_crossings').selectAll().where('user_id', '=', c.user.id).execute()).toEqual([]);
  });

  it('Account Home\u2019s run-out date follows the last 7 days\u2019 pace', async () => {
    const c = await gatewayCustomer(t, admin, [[1024 * KiB, 30]]);
    expect((await call(t.app, 'GET', '/api/traffic', { token: c.token })).body.data.runsOutAt).toBeNull();
    await use(c.username, 600 * KiB);
    const { balanceBytes, runsOutAt } = (await call(t.app, 'GET', '/api/traffic', { token: c.token })).body.data;
    expect(runsOutAt).not.toBeNull();
    const days = (Date.parse(runsOutAt) - t.clock.now().getTime()) / 86_400_000;
    // What was used over a window of 7 days (to the hour): what is left lasts about balance / used × 7 days,
    // well before the grant's 30 days are up.
    const used = 1024 * KiB - balanceBytes;
    expect(days).toBeGreaterThan((balanceBytes / used) * 7 * 0.99);
    expect(days).toBeLessThan((balanceBytes / used) * 7 * 1.01 + 1 / 24);
  });
});

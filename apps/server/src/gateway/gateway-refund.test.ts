import type net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call } from '../../test/auth-flows';
import { buy, seedCatalogue, signedIn } from '../../test/commerce';
import { HOST, type Upstream, basic, connectTunnel, readResponse, startHttpOrigin, startUpstream } from '../../test/gateway-fixtures';
import { PROXY_PASSWORD, closedWithin, enableDirectEgress, startTestGateway, until } from '../../test/store-gateway-kit';
import { DIALECTS, type TestApp, createTestApp } from '../../test/test-app';
import { LocalCutoffBus } from '../lib/cutoff-bus';
import type { StoreGateway } from './store/store-gateway';

/** Timers that never fire during a test: whatever the gateway learns, it learns from the refund's events. */
const NEVER = 3_600_000;
const WAIT_MS = 5000;
const form = { headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: '' };

/*
 * A refund reaches the gateway (docs/business-rules.md#refunds): the API and a store-backed gateway share
 * an in-process cut-off bus, the gateway's polling and enforcement timers are off, so the tunnels below
 * close because the refund announced what it took back.
 */
describe.each(DIALECTS)('a refund through the gateway on %s', (dialect) => {
  const bus = new LocalCutoffBus();
  let t: TestApp;
  let admin: string;
  let web: Awaited<ReturnType<typeof startHttpOrigin>>;
  let upstream: Upstream;
  let g: StoreGateway;
  const sockets: net.Socket[] = [];

  const tunnel = async (username: string, password: string) => {
    const r = await connectTunnel(g.gateway.httpPort, `${HOST}:${web.port}`, basic(username, password));
    sockets.push(r.socket);
    return r;
  };
  const stillCarries = async (socket: net.Socket) => {
    socket.write(`GET /bytes/100 HTTP/1.1\r\nHost: origin\r\n\r\n`);
    return (await readResponse(socket)).status;
  };
  const refund = (orderNo: string) => call(t.app, 'POST', '/api/manage/order-refund', { token: admin, body: { orderNo, note: 'Refunded by hand' } });

  beforeAll(async () => {
    t = await createTestApp(dialect, {}, { cutoffs: bus });
    await seedCatalogue(t);
    admin = (await signedIn(t, 'admin')).token;
    await enableDirectEgress(t, admin);
    web = await startHttpOrigin();
    upstream = await startUpstream();
    g = await startTestGateway(t, { refreshMs: NEVER, flushMs: NEVER, enforceMs: NEVER, cutoffs: bus });
  });
  afterAll(async () => {
    for (const s of sockets) s.destroy();
    await g?.stop();
    await Promise.all([web?.close(), upstream?.close()]);
    await t?.close();
  });

  it('refunding the only traffic package closes the customer’s tunnel and the next one is refused NO_TRAFFIC', async () => {
    const c = await signedIn(t);
    const orderNo = await buy(t, c.token, 1, 'sandbox');
    await t.app.inject({ method: 'POST', url: `/api/pay/sandbox/${orderNo}/pay`, ...form });
    const username = `rfgw${c.user.id}`;
    expect((await call(t.app, 'POST', '/api/proxy/dynamic', { token: c.token, body: { username, password: PROXY_PASSWORD } })).status).toBe(200);
    await g.cache.refresh();
    const open = await tunnel(username, PROXY_PASSWORD);
    expect(open.status).toBe(200);
    expect(await stillCarries(open.socket)).toBe(200);

    const closing = closedWithin(open.socket, WAIT_MS);
    expect((await refund(orderNo)).status).toBe(200);
    expect(await closing).not.toBe(Infinity);
    const again = await tunnel(username, PROXY_PASSWORD);
    expect([again.status, again.headers['x-gateway-reason']]).toEqual([402, 'NO_TRAFFIC']);
  });

  it('refunding a static IP purchase closes that IP’s tunnel and its login is refused STATIC_RELEASED', async () => {
    const regionId = (await call(t.app, 'GET', '/api/static-region')).body.data.items[0].id;
    const businessId = (await call(t.app, 'GET', '/api/business')).body.data.items[0].id;
    const imported = await call(t.app, 'POST', '/api/manage/static-inventory', { token: admin, body: { regionId, lines: `http://${HOST}:${upstream.port} 198.51.100.77` } });
    expect(imported.body.data.created).toBe(1);
    const c = await signedIn(t);
    const granted = await call(t.app, 'POST', '/api/manage/static-recharge', { token: admin, body: { userId: c.user.id, regionId, businessId, quantity: 1, days: 30, note: 'refund test' } });
    expect(granted.status).toBe(200);
    const [ip] = (await call(t.app, 'GET', '/api/proxy/static', { token: c.token })).body.data.items as { username: string; password: string }[];
    await g.cache.refresh();
    const open = await tunnel(ip!.username, ip!.password);
    expect(open.status).toBe(200);
    expect(await stillCarries(open.socket)).toBe(200);

    const closing = closedWithin(open.socket, WAIT_MS);
    expect((await refund(granted.body.data.orderNo)).status).toBe(200);
    expect(await closing).not.toBe(Infinity);
    await until(async () => (await tunnel(ip!.username, ip!.password)).headers['x-gateway-reason'] === 'STATIC_RELEASED', WAIT_MS, 'the refusal');
  });
});

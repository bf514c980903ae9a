import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call } from '../../test/auth-flows';
import { signedIn } from '../../test/commerce';
import { HOST, basic, connectTunnel, socksConnect, startHttpOrigin, waitFor } from '../../test/gateway-fixtures';
import { PROXY_PASSWORD, billed, enableDirectEgress, gatewayCustomer, grantsOf, startTestGateway } from '../../test/store-gateway-kit';
import { DIALECTS, type TestApp, createTestApp } from '../../test/test-app';
import { SOCKS_REPLY } from './statuses';
import { type StoreGateway } from './store/store-gateway';

const KB = 1000;
const KiB = 1024;
const MiB = 1024 * KiB;
const BODY = 32 * MiB;
const LEASE = 256 * KiB;
/** One socket read (the chunk that spends a budget) plus the protocol heads of the connections cut. */
const SLACK = 64 * KiB + 20 * KiB;
/** Timers that never fire: the cuts are the budget's, and the cache is re-read only when a test says. */
const NEVER = 3_600_000;

const closed = (s: net.Socket) => new Promise<void>((resolve) => (s.destroyed ? resolve() : s.once('close', () => resolve()).resume()));
const carried = (sockets: net.Socket[]) => sockets.reduce((n, s) => n + s.bytesRead + s.bytesWritten, 0);

/*
 * Byte budgets against the real store: the AccountCache's figures on SQLite and PostgreSQL, this
 * gateway's own count of what it metered since, and what happens to the bytes past the limit.
 */
describe.each(DIALECTS)('byte budgets against the store on %s', (dialect) => {
  let t: TestApp;
  let admin: string;
  let web: Awaited<ReturnType<typeof startHttpOrigin>>;
  let g: StoreGateway;

  beforeAll(async () => {
    t = await createTestApp(dialect);
    admin = (await signedIn(t, 'admin')).token;
    await enableDirectEgress(t, admin);
    web = await startHttpOrigin();
    g = await startTestGateway(t, {
      refreshMs: NEVER,
      flushMs: NEVER,
      enforceMs: NEVER,
      leaseBytes: LEASE,
    });
  });
  afterAll(async () => {
    await g?.stop();
    await web?.close();
    await t?.close();
  });

  async function viaConnect(username: string): Promise<net.Socket> {
    const r = await connectTunnel(g.gateway.httpPort, `${HOST}:${web.port}`, basic(username, PROXY_PASSWORD));
    if (r.status === 200) r.socket.write(`GET /bytes/${BODY} HTTP/1.1\r\nHost: origin\r\n\r\n`);
    r.socket.resume();
    return r.socket;
  }
  async function viaSocks(username: string): Promise<net.Socket> {
    const r = await socksConnect(g.gateway.socksPort, username, PROXY_PASSWORD, HOST, web.port);
    if (r.rep === 0) r.socket.write(`GET /bytes/${BODY} HTTP/1.1\r\nHost: origin\r\n\r\n`);
    r.socket.resume();
    return r.socket;
  }
  function viaPlain(username: string): net.Socket {
    const s = net.connect(g.gateway.httpPort, HOST);
    s.on('error', () => undefined);
    s.write(`GET http://${HOST}:${web.port}/bytes/${BODY} HTTP/1.1\r\nHost: origin\r\nProxy-Authorization: ${basic(username, PROXY_PASSWORD)}\r\n\r\n`);
    s.resume();
    return s;
  }
  /** 20 parallel downloads, then everything they carried is flushed into the store. */
  async function downloads(open: () => Promise<net.Socket>): Promise<number> {
    const sockets = await Promise.all(Array.from({ length: 20 }, open));
    await Promise.all(sockets.map(closed));
    await waitFor(() => g.gateway.liveConnections() === 0, 5000, 'the gateway to see the closes');
    return carried(sockets);
  }

  it('a 200 KB balance: cut at the balance, the next connection refused before any flush; the overshoot is written off, so a new recharge of N carries N', async () => {
    const limit = 200 * KB;
    const c = await gatewayCustomer(t, admin, [[limit, 30]]);
    await g.cache.refresh();

    let i = 0;
    const first = await downloads(() => (i++ % 2 ? viaConnect(c.username) : viaSocks(c.username)));
    // Nothing has reached the store yet: the refusal is this gateway's own count.
    expect((await billed(t, c.accountId)).total).toBe(0);
    const again = await connectTunnel(g.gateway.httpPort, `${HOST}:${web.port}`, basic(c.username, PROXY_PASSWORD));
    expect([again.status, again.headers['x-gateway-reason']]).toEqual([402, 'NO_TRAFFIC']);
    const againSocks = await socksConnect(g.gateway.socksPort, c.username, PROXY_PASSWORD, HOST, web.port);
    expect([againSocks.authStatus, againSocks.rep]).toEqual([0, SOCKS_REPLY.NOT_ALLOWED]);

    expect(await g.gateway.flush()).toBe(true);
    const b1 = await billed(t, c.accountId);
    console.log(`store balance on ${dialect}: limit ${limit}, lease ${LEASE}, delivered ${first}, billed ${b1.total}, overshoot ${b1.total - limit}`);
    expect(b1.total).toBeGreaterThanOrEqual(limit);
    expect(b1.total).toBeLessThanOrEqual(limit + SLACK);
    expect(first).toBeLessThanOrEqual(limit + LEASE);
    // Billed in full: the grant records the bytes past its size (docs/gateway.md, byte budgets).
    expect(await grantsOf(t, c.user.id)).toEqual([{ bytes: limit, used_bytes: b1.total }]);
    // The flush landed and the cache shows it: still refused, and nothing is subtracted twice below.
    expect((await connectTunnel(g.gateway.httpPort, `${HOST}:${web.port}`, basic(c.username, PROXY_PASSWORD))).status).toBe(402);

    const n = 300 * KB;
    const r = await call(t.app, 'POST', '/api/manage/recharge', { token: admin, body: { userId: c.user.id, bytes: n, validityDays: 30, note: 'after the cut' } });
    expect(r.status).toBe(200);
    expect((await call(t.app, 'GET', '/api/traffic', { token: c.token })).body.data.balanceBytes).toBe(n);
    await g.cache.refresh();
    i = 0;
    await downloads(() => (i++ % 2 ? viaConnect(c.username) : viaSocks(c.username)));
    expect(await g.gateway.flush()).toBe(true);
    const second = (await billed(t, c.accountId)).total - b1.total;
    console.log(`store balance on ${dialect}: recharged ${n}, then carried ${second}`);
    expect(second).toBeGreaterThanOrEqual(n);
    expect(second).toBeLessThanOrEqual(n + SLACK);
  }, 60_000);

  it('a connection limit set through the API holds on the gateway: the connection over it is refused 429', async () => {
    const c = await gatewayCustomer(t, admin, [[64 * MiB, 30]]);
    expect((await call(t.app, 'PUT', `/api/proxy/dynamic/${c.accountId}`, { token: c.token, body: { maxConnections: 2 } })).status).toBe(200);
    await g.cache.refresh();
    const auth = basic(c.username, PROXY_PASSWORD);
    const viaConnect = await connectTunnel(g.gateway.httpPort, `${HOST}:${web.port}`, auth);
    const viaSocks = await socksConnect(g.gateway.socksPort, c.username, PROXY_PASSWORD, HOST, web.port);
    expect([viaConnect.status, viaSocks.rep]).toEqual([200, 0]);
    const over = await connectTunnel(g.gateway.httpPort, `${HOST}:${web.port}`, auth);
    expect([over.status, over.headers['x-gateway-reason']]).toEqual([429, 'TOO_MANY_CONNECTIONS']);
    for (const s of [viaConnect.socket, viaSocks.socket]) s.destroy();
    await waitFor(() => g.gateway.liveConnections() === 0, 5000, 'the gateway to see the closes');
  });

  it('a 300 KB cap: cut at the cap over CONNECT and plain HTTP; the overshoot counts against the cap, so a cap raised by N carries N less the overshoot', async () => {
    const limit = 300 * KB;
    const c = await gatewayCustomer(t, admin, [[64 * MiB, 30]]);
    expect((await call(t.app, 'PUT', `/api/proxy/dynamic/${c.accountId}`, { token: c.token, body: { limitBytes: limit } })).status).toBe(200);
    await g.cache.refresh();

    let i = 0;
    const first = await downloads(() => (i++ % 2 ? viaConnect(c.username) : Promise.resolve(viaPlain(c.username))));
    const again = await connectTunnel(g.gateway.httpPort, `${HOST}:${web.port}`, basic(c.username, PROXY_PASSWORD));
    expect([again.status, again.headers['x-gateway-reason']]).toEqual([403, 'ACCOUNT_CAP']);

    expect(await g.gateway.flush()).toBe(true);
    const b1 = await billed(t, c.accountId);
    console.log(`store cap on ${dialect}: limit ${limit}, lease ${LEASE}, delivered ${first}, billed ${b1.total}, overshoot ${b1.total - limit}`);
    expect(b1.accountUsed).toBe(b1.total);
    expect(b1.total).toBeGreaterThanOrEqual(limit);
    expect(b1.total).toBeLessThanOrEqual(limit + SLACK);
    expect(first).toBeLessThanOrEqual(limit + LEASE);

    const n = 400 * KB;
    expect((await call(t.app, 'PUT', `/api/proxy/dynamic/${c.accountId}`, { token: c.token, body: { limitBytes: limit + n } })).status).toBe(200);
    await g.cache.refresh();
    i = 0;
    await downloads(() => (i++ % 2 ? viaConnect(c.username) : Promise.resolve(viaPlain(c.username))));
    expect(await g.gateway.flush()).toBe(true);
    const b2 = await billed(t, c.accountId);
    console.log(`store cap on ${dialect}: cap raised by ${n}, then carried ${b2.total - b1.total}`);
    expect(b2.total).toBeGreaterThanOrEqual(limit + n);
    expect(b2.total).toBeLessThanOrEqual(limit + n + SLACK);
  }, 60_000);
});

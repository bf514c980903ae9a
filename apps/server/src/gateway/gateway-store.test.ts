import type net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call } from '../../test/auth-flows';
import { signedIn } from '../../test/commerce';
import { HOST, basic, connectTunnel, exchange, readResponse, socksConnect, startByteOrigin, startHttpOrigin, waitFor } from '../../test/gateway-fixtures';
import {
  PROXY_PASSWORD,
  billed,
  carried,
  closedWithin,
  enableDirectEgress,
  gatewayCustomer,
  grantsOf,
  until,
} from '../../test/store-gateway-kit';
import { DIALECTS, type TestApp, createTestApp } from '../../test/test-app';
import { silentLog } from './gateway-log';
import { SOCKS_REPLY } from './statuses';
import { type StoreGateway, startStoreGateway } from './store/store-gateway';

const KB = 1024;
const MB = 1024 * KB;
/** docs/gateway.md#cut-off-timing: an account that may no longer carry traffic is cut within this. */
const CUT_MS = 10_000;

const hourOf = (d: Date) => new Date(Math.floor(d.getTime() / 3_600_000) * 3_600_000).toISOString();

/*
 * The store-backed gateway with nothing faked: startStoreGateway's account cache, usage store and
 * supply over the test app's database, with its production timings (flush and enforcement every 5 s,
 * cache refresh every 2 s), driven by real sockets and by the API of an app on the same database.
 */
describe.each(DIALECTS)('store-backed gateway on %s', (dialect) => {
  let t: TestApp;
  let admin: string;
  let web: Awaited<ReturnType<typeof startHttpOrigin>>;
  let origin: Awaited<ReturnType<typeof startByteOrigin>>;
  let g: StoreGateway;
  const sockets: net.Socket[] = [];
  const start = (o: { flushMs?: number; enforceMs?: number } = {}) =>
    startStoreGateway({ db: t.db.db, clock: t.clock, appSecret: t.config.APP_SECRET, host: HOST, httpPort: 0, socksPort: 0, allowPrivateDestinations: true, log: silentLog, ...o });
  const tunnel = async (port: number, target: number, username: string) => {
    const r = await connectTunnel(port, `${HOST}:${target}`, basic(username, PROXY_PASSWORD));
    sockets.push(r.socket);
    return r;
  };
  const socks = async (port: number, target: number, username: string) => {
    const r = await socksConnect(port, username, PROXY_PASSWORD, HOST, target);
    sockets.push(r.socket);
    return r;
  };

  /** A new proxy account reaches the gateway with its next cache refresh (every 2 s). */
  const known = (gw: StoreGateway, ...names: string[]) =>
    until(() => names.every((n) => gw.cache.authenticate(n, PROXY_PASSWORD).ok), 10_000, `the gateway to know ${names.join(', ')}`);

  beforeAll(async () => {
    t = await createTestApp(dialect);
    admin = (await signedIn(t, 'admin')).token;
    await enableDirectEgress(t, admin);
    web = await startHttpOrigin();
    origin = await startByteOrigin();
    g = await start();
  });
  afterAll(async () => {
    for (const s of sockets) s.destroy();
    await g?.stop();
    await Promise.all([web?.close(), origin?.close()]);
    await t?.close();
  });

  it('bills CONNECT and SOCKS5 bytes into hourly usage and the grants, earliest expiry first', async () => {
    const c = await gatewayCustomer(t, admin, [
      [64 * MB, 60],
      [2 * MB, 7],
    ]);
    await known(g, c.username);
    const viaConnect = await tunnel(g.gateway.httpPort, origin.port, c.username);
    const viaSocks = await socks(g.gateway.socksPort, origin.port, c.username);
    expect([viaConnect.status, viaSocks.rep]).toEqual([200, 0]);
    expect(await exchange(viaConnect.socket, 512 * KB, 1 * MB)).toBe(1 * MB);
    expect(await exchange(viaSocks.socket, 256 * KB, 1536 * KB)).toBe(1536 * KB);
    await waitFor(() => g.gateway.liveConnections() === 0, 10_000, 'the gateway to see both closes');
    expect(await g.gateway.flush()).toBe(true);

    const up = viaConnect.socket.bytesWritten + viaSocks.socket.bytesWritten;
    const down = viaConnect.socket.bytesRead + viaSocks.socket.bytesRead;
    const b = await billed(t, c.accountId);
    expect(b.rows).toEqual([{ hour: hourOf(t.clock.now()), country: '', bytes_up: up, bytes_down: down }]);
    expect(b.accountUsed).toBe(up + down);
    // The grant that expires first is used up before the later one is touched.
    expect(await grantsOf(t, c.user.id)).toEqual([
      { bytes: 2 * MB, used_bytes: 2 * MB },
      { bytes: 64 * MB, used_bytes: up + down - 2 * MB },
    ]);
    const traffic = await call(t.app, 'GET', '/api/traffic', { token: c.token });
    expect(traffic.body.data.balanceBytes).toBe(66 * MB - (up + down));
  });

  it('closes the open tunnels of an account disabled through the API and refuses it with the reason', async () => {
    const c = await gatewayCustomer(t, admin, [[64 * MB, 30]]);
    const bystander = await gatewayCustomer(t, admin, [[64 * MB, 30]]);
    await known(g, c.username, bystander.username);
    const open = await tunnel(g.gateway.httpPort, web.port, c.username);
    const openSocks = await socks(g.gateway.socksPort, web.port, c.username);
    const other = await tunnel(g.gateway.httpPort, web.port, bystander.username);
    expect([open.status, openSocks.rep, other.status]).toEqual([200, 0, 200]);

    const res = await call(t.app, 'PUT', `/api/proxy/dynamic/${c.accountId}`, { token: c.token, body: { status: 'disabled' } });
    expect(res.status).toBe(200);
    const closings = await Promise.all([closedWithin(open.socket, 15_000), closedWithin(openSocks.socket, 15_000)]);
    for (const ms of closings) expect(ms).toBeLessThanOrEqual(CUT_MS);
    expect(other.socket.destroyed).toBe(false);

    const again = await tunnel(g.gateway.httpPort, web.port, c.username);
    expect([again.status, again.headers['x-gateway-reason']]).toEqual([403, 'ACCOUNT_DISABLED']);
    expect(again.body).toMatch(/^ACCOUNT_DISABLED: /);
    const againSocks = await socks(g.gateway.socksPort, web.port, c.username);
    expect([againSocks.authStatus, againSocks.rep]).toEqual([0, SOCKS_REPLY.NOT_ALLOWED]);
    // The bystander's tunnel still carries traffic.
    other.socket.write(`GET /bytes/100 HTTP/1.1\r\nHost: origin\r\n\r\n`);
    expect((await readResponse(other.socket)).status).toBe(200);
  }, 60_000);

  it('cuts live downloads off within 10 s of the balance running out, and bills the overrun', async () => {
    const balance = 1.5 * MB;
    const c = await gatewayCustomer(t, admin, [[balance, 30]]);
    await known(g, c.username);
    const down1 = await tunnel(g.gateway.httpPort, web.port, c.username);
    const down2 = await socks(g.gateway.socksPort, web.port, c.username);
    expect([down1.status, down2.rep]).toEqual([200, 0]);
    const both = [down1.socket, down2.socket];
    let crossed = 0;
    for (const s of both) {
      s.write(`GET /stream/${512 * KB} HTTP/1.1\r\nHost: origin\r\n\r\n`);
      // What the clients carried together is what the gateway bills: note when it passed the balance.
      s.on('data', () => {
        if (!crossed && both.reduce((n, x) => n + carried(x), 0) >= balance) crossed = Date.now();
      });
    }
    const t0 = Date.now();
    const closes = await Promise.all(both.map((s) => closedWithin(s, 30_000)));
    expect(crossed).toBeGreaterThan(0);
    expect(t0 + Math.max(...closes) - crossed).toBeLessThanOrEqual(CUT_MS);

    const again = await tunnel(g.gateway.httpPort, web.port, c.username);
    expect([again.status, again.headers['x-gateway-reason']]).toEqual([402, 'NO_TRAFFIC']);
    // Everything carried is billed, the bytes past the balance as overrun on the grant.
    await waitFor(() => g.gateway.liveConnections() === 0, 10_000, 'the gateway to see the closes');
    expect(await g.gateway.flush()).toBe(true);
    const [grant] = await grantsOf(t, c.user.id);
    expect(grant!.used_bytes).toBeGreaterThanOrEqual(balance);
    expect((await billed(t, c.accountId)).total).toBe(grant!.used_bytes);
  }, 60_000);

  it('flushes the unflushed bytes into the store when it stops', async () => {
    // Its own gateway, which never flushes on a timer: whatever reaches the store came from stop().
    const quiet = await start({ flushMs: 3_600_000, enforceMs: 3_600_000 });
    const c = await gatewayCustomer(t, admin, [[64 * MB, 30]]);
    await known(quiet, c.username);
    const closedOne = await tunnel(quiet.gateway.httpPort, origin.port, c.username);
    expect(await exchange(closedOne.socket, 300 * KB, 700 * KB)).toBe(700 * KB);
    // And one still open at stop, its response read whole.
    const openOne = await socks(quiet.gateway.socksPort, web.port, c.username);
    openOne.socket.write(`GET /bytes/${900 * KB} HTTP/1.1\r\nHost: origin\r\n\r\n`);
    expect((await readResponse(openOne.socket)).status).toBe(200);
    await until(() => quiet.gateway.liveConnections() === 1, 10_000, 'the finished tunnel to close on the gateway');
    expect((await billed(t, c.accountId)).total).toBe(0);

    await quiet.stop();
    const b = await billed(t, c.accountId);
    expect(b.up).toBe(closedOne.socket.bytesWritten + openOne.socket.bytesWritten);
    expect(b.down).toBe(closedOne.socket.bytesRead + openOne.socket.bytesRead);
    expect((await grantsOf(t, c.user.id))[0]!.used_bytes).toBe(b.total);
  });
});

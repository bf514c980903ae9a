import http from 'node:http';
import type net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call } from '../../test/auth-flows';
import { seedCatalogue, signedIn } from '../../test/commerce';
import {
  FakeAuthority,
  HOST,
  type Upstream,
  basic,
  connectTunnel,
  exchange,
  readResponse,
  socksConnect,
  startByteOrigin,
  startGateway,
  startHttpOrigin,
  startUpstream,
} from '../../test/gateway-fixtures';
import { PROXY_PASSWORD, billed, closedWithin, gatewayCustomer, grantsOf, startTestGateway, until } from '../../test/store-gateway-kit';
import { DIALECTS, type TestApp, createTestApp } from '../../test/test-app';
import { DAY } from '../lib/clock';
import { SOCKS_REPLY } from './statuses';
import type { StoreGateway } from './store/store-gateway';
import { UpstreamExitChooser } from './upstream-exit-chooser';

const KB = 1024;
const MB = 1024 * KB;
/** docs/gateway.md#static-ips: a change to a static IP reaches every gateway's live connections within this. */
const CUT_MS = 10_000;

/** A plain request through the proxy on its own connection; `up`/`down`: what that connection carried, read once it closed. */
function plainGet(port: number, url: string, auth: string): Promise<{ status: number; reason: string | undefined; length: number; up: number; down: number }> {
  return new Promise((resolve, reject) => {
    const req = http.get({ host: HOST, port, path: url, agent: false, headers: { 'proxy-authorization': auth, connection: 'close' } }, (res) => {
      let length = 0;
      res.on('data', (c: Buffer) => (length += c.length));
      res.on('end', () => {
        const socket = req.socket!;
        socket.once('close', () =>
          resolve({ status: res.statusCode ?? 0, reason: res.headers['x-gateway-reason'] as string | undefined, length, up: socket.bytesWritten, down: socket.bytesRead }),
        );
        if (socket.destroyed) socket.emit('close');
      });
    });
    req.on('error', reject);
  });
}

interface StaticLogin {
  id: number;
  ip: string;
  username: string;
  password: string;
  accountId: number;
}

/*
 * Static IPs through the store-backed gateway (docs/gateway.md#static-ips), with production timings:
 * bought (granted) through the API, each inventory row pointing at its own local upstream proxy — an
 * HTTP one (proxy-chain, which counts what it carried) and a SOCKS5 one (another gateway, which meters
 * it). The rotating supply is empty, so a byte that left any other way would be refused NO_SUPPLY.
 */
describe.each(DIALECTS)('static IPs through the gateway on %s', (dialect) => {
  let t: TestApp;
  let admin: string;
  let regionId: number;
  let businessId: number;
  let web: Awaited<ReturnType<typeof startHttpOrigin>>;
  let origin: Awaited<ReturnType<typeof startByteOrigin>>;
  let httpUpstream: Upstream;
  let socksUpstream: Awaited<ReturnType<typeof startGateway>>;
  let socksAccountId: number;
  let g: StoreGateway;
  const sockets: net.Socket[] = [];
  let nextIp = 10;

  const socksCarried = async () => {
    await socksUpstream.gw.flush();
    const { up, down } = socksUpstream.sink.total(socksAccountId);
    return up + down;
  };

  /** Imports rows (`http`: the HTTP upstream, `socks5`: the SOCKS5 one), each with its own exit IP; answers their ids. */
  async function importRows(...kinds: ('http' | 'socks5')[]): Promise<{ id: number; ip: string }[]> {
    // Rows an earlier test left free would be granted first (the lowest id).
    await t.db.db.updateTable('static_inventory').set({ status: 'retired' }).where('status', '=', 'free').execute();
    const lines = kinds.map((k) => {
      const ip = `198.51.100.${nextIp++}`;
      return k === 'http' ? `http://upa:pa%40ss@${HOST}:${httpUpstream.port} ${ip}` : `socks5://upb:pb%3Ass@${HOST}:${socksUpstream.gw.socksPort} ${ip}`;
    });
    const res = await call(t.app, 'POST', '/api/manage/static-inventory', { token: admin, body: { regionId, lines: lines.join('\n') } });
    expect(res.body.data.created).toBe(kinds.length);
    return (res.body.data.results as { id: number; ip: string }[]).map(({ id, ip }) => ({ id, ip }));
  }

  /** One static IP granted to the customer (the first free row, by id), as `GET /api/proxy/static` shows it. */
  async function grant(c: { user: { id: number }; token: string }, days = 30): Promise<StaticLogin> {
    const res = await call(t.app, 'POST', '/api/manage/static-recharge', { token: admin, body: { userId: c.user.id, regionId, businessId, quantity: 1, days, note: 'gateway test' } });
    expect(res.status).toBe(200);
    const mine = await call(t.app, 'GET', '/api/proxy/static', { token: c.token });
    const item = (mine.body.data.items as Omit<StaticLogin, 'accountId'>[]).at(-1)!;
    const account = await t.db.db.selectFrom('proxy_accounts').select('id').where('username', '=', item.username).executeTakeFirstOrThrow();
    await until(() => g.cache.authenticate(item.username, item.password).ok, 10_000, 'the gateway to know the static login');
    return { id: item.id, ip: item.ip, username: item.username, password: item.password, accountId: account.id };
  }

  const tunnel = async (login: { username: string; password: string }, target = origin.port, port = g.gateway.httpPort) => {
    const r = await connectTunnel(port, `${HOST}:${target}`, basic(login.username, login.password));
    sockets.push(r.socket);
    return r;
  };
  const socks = async (login: { username: string; password: string }, target = origin.port, port = g.gateway.socksPort) => {
    const r = await socksConnect(port, login.username, login.password, HOST, target);
    sockets.push(r.socket);
    return r;
  };
  /** A tunnel kept open to the HTTP origin, proven live by one request. */
  const openTunnel = async (login: StaticLogin) => {
    const r = await tunnel(login, web.port);
    expect(r.status).toBe(200);
    r.socket.write(`GET /bytes/10 HTTP/1.1\r\nHost: origin\r\n\r\n`);
    expect((await readResponse(r.socket)).status).toBe(200);
    return r.socket;
  };
  const setAllocation = (id: number, set: { status?: 'active' | 'grace' | 'released'; inventory_id?: number }) => t.db.db.updateTable('static_allocations').set(set).where('id', '=', id).execute();

  beforeAll(async () => {
    t = await createTestApp(dialect);
    await seedCatalogue(t);
    admin = (await signedIn(t, 'admin')).token;
    // No rotating exit at all: the demo catalogue turns direct egress on.
    expect((await call(t.app, 'POST', '/api/manage/supply', { token: admin, body: { directEgress: false } })).status).toBe(200);
    regionId = (await call(t.app, 'GET', '/api/static-region')).body.data.items[0].id;
    businessId = (await call(t.app, 'GET', '/api/business')).body.data.items[0].id;
    web = await startHttpOrigin();
    origin = await startByteOrigin();
    httpUpstream = await startUpstream({ user: 'upa', pass: 'pa@ss' });
    const supplier = new FakeAuthority();
    socksAccountId = supplier.add('upb', { password: 'pb:ss' }).id;
    socksUpstream = await startGateway({ chooser: new UpstreamExitChooser({ direct: true }) }, supplier);
    g = await startTestGateway(t);
  });
  afterAll(async () => {
    for (const s of sockets) s.destroy();
    await g?.stop();
    await socksUpstream?.gw.stop();
    await Promise.all([web?.close(), origin?.close(), httpUpstream?.close()]);
    await t?.close();
  });

  it('leaves only through its own upstream on both ports, metered, without drawing the balance; moved to another row, it follows', async () => {
    const [httpRow, socksRow] = await importRows('http', 'socks5');
    const c = await gatewayCustomer(t, admin, [[1 * MB, 30]]);
    const ip = await grant(c);
    expect(ip.ip).toBe(httpRow!.ip);
    const carriedBefore = httpUpstream.carried();

    // CONNECT, SOCKS5 and a plain request, 3 MB in all through a 1 MB balance; region and session are ignored.
    const viaConnect = await tunnel(ip);
    const viaSocks = await socks({ ...ip, username: `${ip.username}-country-de-session-s1` });
    expect([viaConnect.status, viaSocks.rep]).toEqual([200, 0]);
    expect(await exchange(viaConnect.socket, 256 * KB, 1 * MB)).toBe(1 * MB);
    expect(await exchange(viaSocks.socket, 256 * KB, 1 * MB)).toBe(1 * MB);
    const plain = await plainGet(g.gateway.httpPort, `http://${HOST}:${web.port}/bytes/${400 * KB}`, basic(ip.username, ip.password));
    expect(plain).toMatchObject({ status: 200, reason: undefined, length: 400 * KB });
    expect(httpUpstream.carried() - carriedBefore).toBe(3);
    expect(await socksCarried()).toBe(0);
    // The customer's rotating login has no exit: the static IP's upstream serves its login alone.
    const rotating = await tunnel({ username: c.username, password: PROXY_PASSWORD });
    expect([rotating.status, rotating.headers['x-gateway-reason']]).toEqual([502, 'NO_SUPPLY']);

    await until(() => g.gateway.liveConnections() === 0, 10_000, 'the gateway to see the closes');
    expect(await g.gateway.flush()).toBe(true);
    // Billed to the byte on the static login, under its region's country, as a rotating login would be.
    const b = await billed(t, ip.accountId);
    expect(b.up).toBe(viaConnect.socket.bytesWritten + viaSocks.socket.bytesWritten + plain.up);
    expect(b.down).toBe(viaConnect.socket.bytesRead + viaSocks.socket.bytesRead + plain.down);
    expect(b.rows.map((r) => r.country)).toEqual(['US']);
    expect(b.accountUsed).toBe(b.total);
    expect(await grantsOf(t, c.user.id)).toEqual([{ bytes: 1 * MB, used_bytes: 0 }]);
    expect((await call(t.app, 'GET', '/api/traffic', { token: c.token })).body.data.balanceBytes).toBe(1 * MB);
    // Static traffic is not rotating traffic: out of the rotating charts, shown on its IP, tagged in Usage Record.
    const rotatingViews = (await call(t.app, 'GET', '/api/traffic', { token: c.token })).body.data as { series: { bytesUp: number; bytesDown: number }[]; byAccount: unknown[]; byCountry: unknown[] };
    expect([rotatingViews.byAccount, rotatingViews.byCountry, rotatingViews.series.reduce((sum, s) => sum + s.bytesUp + s.bytesDown, 0)]).toEqual([[], [], 0]);
    const [shown] = (await call(t.app, 'GET', '/api/proxy/static', { token: c.token })).body.data.items as { bytesToday: number; bytes30Days: number }[];
    expect([shown!.bytesToday, shown!.bytes30Days]).toEqual([b.total, b.total]);
    const record = (await call(t.app, 'GET', '/api/record/usage', { token: c.token })).body.data.items as { staticIp: string | null; bytesUp: number; bytesDown: number }[];
    expect(record.map((r) => [r.staticIp, r.bytesUp + r.bytesDown])).toEqual([[ip.ip, b.total]]);

    // A replacement moves the allocation to the SOCKS5 row: the tunnel on the old exit is cut, new ones take the new exit.
    const old = await openTunnel(ip);
    await setAllocation(ip.id, { inventory_id: socksRow!.id });
    expect(await closedWithin(old, 15_000)).toBeLessThanOrEqual(CUT_MS);
    const carriedOld = httpUpstream.carried();
    const moved = await tunnel(ip);
    const movedSocks = await socks(ip);
    expect([moved.status, movedSocks.rep]).toEqual([200, 0]);
    expect(await exchange(moved.socket, 1000, 50 * KB)).toBe(50 * KB);
    expect(await exchange(movedSocks.socket, 1000, 50 * KB)).toBe(50 * KB);
    expect(await plainGet(g.gateway.httpPort, `http://${HOST}:${web.port}/bytes/1000`, basic(ip.username, ip.password))).toMatchObject({ status: 200, length: 1000 });
    expect(httpUpstream.carried()).toBe(carriedOld);
    expect(await socksCarried()).toBeGreaterThan(100 * KB);
  }, 60_000);

  it('refuses a static IP in grace STATIC_EXPIRED and a released or retired one STATIC_RELEASED, cutting live tunnels', async () => {
    await importRows('http');
    const c = await gatewayCustomer(t, admin, []);
    const ip = await grant(c);

    const live = await openTunnel(ip);
    await setAllocation(ip.id, { status: 'grace' });
    expect(await closedWithin(live, 15_000)).toBeLessThanOrEqual(CUT_MS);
    const expired = await tunnel(ip);
    expect([expired.status, expired.headers['x-gateway-reason']]).toEqual([402, 'STATIC_EXPIRED']);
    expect(expired.body).toBe('STATIC_EXPIRED: This static IP has expired; renew it to continue.');
    const expiredSocks = await socks(ip);
    expect([expiredSocks.authStatus, expiredSocks.rep]).toEqual([0, SOCKS_REPLY.NOT_ALLOWED]);
    expect(await plainGet(g.gateway.httpPort, `http://${HOST}:${web.port}/bytes/10`, basic(ip.username, ip.password))).toMatchObject({ status: 402, reason: 'STATIC_EXPIRED' });

    // Renewed (active again): served at once on the next refresh.
    await setAllocation(ip.id, { status: 'active' });
    await until(() => g.cache.authenticate(ip.username, ip.password).ok, 10_000, 'the renewal to reach the gateway');
    const again = await openTunnel(ip);
    await setAllocation(ip.id, { status: 'released' });
    expect(await closedWithin(again, 15_000)).toBeLessThanOrEqual(CUT_MS);
    const released = await tunnel(ip);
    expect([released.status, released.headers['x-gateway-reason']]).toEqual([403, 'STATIC_RELEASED']);
    expect((await socks(ip)).rep).toBe(SOCKS_REPLY.NOT_ALLOWED);

    // An admin retiring the row it exits through releases it too (an edit of the inventory row, not of the allocation).
    await setAllocation(ip.id, { status: 'active' });
    await until(() => g.cache.authenticate(ip.username, ip.password).ok, 10_000, 'the allocation to be served again');
    const onRow = await openTunnel(ip);
    const row = await t.db.db.selectFrom('static_allocations').select('inventory_id').where('id', '=', ip.id).executeTakeFirstOrThrow();
    expect((await call(t.app, 'DELETE', `/api/manage/static-inventory/${row.inventory_id}`, { token: admin, body: { reason: 'provider gone' } })).status).toBe(200);
    expect(await closedWithin(onRow, 15_000)).toBeLessThanOrEqual(CUT_MS);
    expect((await tunnel(ip)).headers['x-gateway-reason']).toBe('STATIC_RELEASED');
  }, 90_000);

  it('never holds or refuses a static login for balance when budgets are shared between gateways', async () => {
    await importRows('http');
    // No traffic at all: a rotating login of this user would be refused NO_TRAFFIC.
    const c = await gatewayCustomer(t, admin, []);
    const ip = await grant(c);
    const shared = await startTestGateway(t, { sharedBudgets: true, leaseBytes: 256 * KB });
    try {
      await until(() => shared.cache.authenticate(ip.username, ip.password).ok, 10_000, 'the shared gateway to know the login');
      expect(shared.cache.standing(ip.accountId)).toBeNull();
      const rotating = await tunnel({ username: c.username, password: PROXY_PASSWORD }, origin.port, shared.gateway.httpPort);
      expect(rotating.headers['x-gateway-reason']).toBe('NO_TRAFFIC');
      const down = await tunnel(ip, origin.port, shared.gateway.httpPort);
      const up = await socks(ip, origin.port, shared.gateway.socksPort);
      expect([down.status, up.rep]).toEqual([200, 0]);
      // Many leases' worth both ways, with flushes landing meanwhile.
      const [gotDown, gotUp] = await Promise.all([exchange(down.socket, 1000, 4 * MB), exchange(up.socket, 2 * MB, 1000)]);
      expect([gotDown, gotUp]).toEqual([4 * MB, 1000]);
      expect(await shared.gateway.flush()).toBe(true);
      const held = await t.db.db.selectFrom('gateway_reservations').select(['kind', 'subject_id']).execute();
      expect(held.filter((r) => (r.kind === 'user' && r.subject_id === c.user.id) || (r.kind === 'account' && r.subject_id === ip.accountId))).toEqual([]);
      expect((await billed(t, ip.accountId)).total).toBeGreaterThan(6 * MB);
      expect(await grantsOf(t, c.user.id)).toEqual([]);
    } finally {
      await shared.stop();
    }
  }, 60_000);

  // Last: it moves the test clock past every allocation's expiry.
  it('refuses a static IP STATIC_EXPIRED once its time is up by the clock, and cuts its live tunnels', async () => {
    await importRows('socks5');
    const c = await gatewayCustomer(t, admin, [[1 * MB, 30]]);
    const ip = await grant(c, 1);
    const live = await tunnel(ip, web.port);
    expect(live.status).toBe(200);
    t.clock.advance(DAY + 1000);
    // Nothing is written: the gateway's own clock check finds it (enforcement every 5 s).
    expect(await closedWithin(live.socket, 15_000)).toBeLessThanOrEqual(CUT_MS);
    const refused = await tunnel(ip);
    expect([refused.status, refused.headers['x-gateway-reason']]).toEqual([402, 'STATIC_EXPIRED']);
    expect((await socks(ip)).rep).toBe(SOCKS_REPLY.NOT_ALLOWED);
  }, 60_000);
});

import type net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call } from '../../test/auth-flows';
import { signedIn } from '../../test/commerce';
import { HOST, basic, connectTunnel, exchange, readResponse, socksConnect, startByteOrigin, startHttpOrigin } from '../../test/gateway-fixtures';
import { PROXY_PASSWORD, billed, byteOriginHeader, carried, closedWithin, enableDirectEgress, gatewayCustomer, until, startTestGateway } from '../../test/store-gateway-kit';
import { DIALECTS, type TestApp, createTestApp } from '../../test/test-app';
import { type CutoffEvent, LocalCutoffBus } from '../lib/cutoff-bus';
import { SOCKS_REPLY } from './statuses';
import { type StoreGateway } from './store/store-gateway';

const KB = 1024;
const MB = 1024 * KB;
/** Timers that never fire during a test: whatever the gateways learn, they learn from events. */
const NEVER = 3_600_000;
/** How long a test waits for a close; anything but Infinity means an event did it (there is no polling). */
const WAIT_MS = 5000;
/** A re-read of one user takes milliseconds; well short of any polling, which is off here anyway. */
const ADMIT_MS = 2000;

/*
 * The embedded default (no REDIS_URL): the API and two store-backed gateways in one process share an
 * in-process cut-off bus. The gateways' polling, flushes and enforcement are switched off, so every
 * close and refusal below comes from the events the API and the gateways' own flushes publish.
 */
describe.each(DIALECTS)('cut-off events in one process on %s', (dialect) => {
  const bus = new LocalCutoffBus();
  const events: CutoffEvent[] = [];
  let t: TestApp;
  let admin: string;
  let web: Awaited<ReturnType<typeof startHttpOrigin>>;
  let origin: Awaited<ReturnType<typeof startByteOrigin>>;
  let g1: StoreGateway;
  let g2: StoreGateway;
  const sockets: net.Socket[] = [];

  const start = () =>
    startTestGateway(t, {
      refreshMs: NEVER,
      flushMs: NEVER,
      enforceMs: NEVER,
      cutoffs: bus,
    });
  const tunnel = async (g: StoreGateway, target: number, username: string, password = PROXY_PASSWORD) => {
    const r = await connectTunnel(g.gateway.httpPort, `${HOST}:${target}`, basic(username, password));
    sockets.push(r.socket);
    return r;
  };
  const socks = async (g: StoreGateway, target: number, username: string) => {
    const r = await socksConnect(g.gateway.socksPort, username, PROXY_PASSWORD, HOST, target);
    sockets.push(r.socket);
    return r;
  };
  /** A customer both gateways know (their timers never re-read the store on their own). */
  const customer = async (grantBytes = 64 * MB) => {
    const c = await gatewayCustomer(t, admin, [[grantBytes, 30]]);
    await Promise.all([g1.cache.refresh(), g2.cache.refresh()]);
    return c;
  };
  /** Flushes `g` until the store holds every byte `socket` carried (the gateway sees its close a moment later). */
  const flushedAll = (g: StoreGateway, accountId: number, socket: net.Socket) =>
    until(
      async () => (await g.gateway.flush()) && (await billed(t, accountId)).total === carried(socket),
      WAIT_MS,
      'the tunnel to be billed',
    );
  /** Waits, briefly, until `g` admits a tunnel of `username`: the API's event re-reads the store in the background. */
  const admitted = (g: StoreGateway, username: string) =>
    until(async () => (await tunnel(g, web.port, username)).status === 200, ADMIT_MS, `${username} to be admitted`);
  const stillCarries = async (socket: net.Socket) => {
    socket.write(`GET /bytes/100 HTTP/1.1\r\nHost: origin\r\n\r\n`);
    return (await readResponse(socket)).status;
  };

  beforeAll(async () => {
    bus.subscribe((e) => void events.push(e));
    t = await createTestApp(dialect, {}, { cutoffs: bus });
    admin = (await signedIn(t, 'admin')).token;
    // Before the gateways start: they read the supply once, at start.
    await enableDirectEgress(t, admin);
    web = await startHttpOrigin();
    origin = await startByteOrigin();
    g1 = await start();
    g2 = await start();
  });
  afterAll(async () => {
    for (const s of sockets) s.destroy();
    await Promise.all([g1?.stop(), g2?.stop()]);
    await Promise.all([web?.close(), origin?.close()]);
    await t?.close();
  });

  it('disabling an account through the API closes its tunnels on every gateway, and nobody else’s', async () => {
    const c = await customer();
    const bystander = await customer();
    const viaG1 = await tunnel(g1, web.port, c.username);
    const viaG2 = await socks(g2, web.port, c.username);
    const other = await tunnel(g1, web.port, bystander.username);
    expect([viaG1.status, viaG2.rep, other.status]).toEqual([200, 0, 200]);

    const closings = [closedWithin(viaG1.socket, WAIT_MS), closedWithin(viaG2.socket, WAIT_MS)];
    expect((await call(t.app, 'PUT', `/api/proxy/dynamic/${c.accountId}`, { token: c.token, body: { status: 'disabled' } })).status).toBe(200);
    for (const ms of await Promise.all(closings)) expect(ms).not.toBe(Infinity);
    expect(events.at(-1)).toEqual({ userId: c.user.id, accountId: c.accountId });

    const again = await tunnel(g2, web.port, c.username);
    expect([again.status, again.headers['x-gateway-reason']]).toEqual([403, 'ACCOUNT_DISABLED']);
    const againSocks = await socks(g1, web.port, c.username);
    expect([againSocks.authStatus, againSocks.rep]).toEqual([0, SOCKS_REPLY.NOT_ALLOWED]);
    expect(await stillCarries(other.socket)).toBe(200);
  });

  it('deleting an account closes its tunnels and its login stops working', async () => {
    const c = await customer();
    const viaG1 = await tunnel(g1, web.port, c.username);
    const viaG2 = await tunnel(g2, web.port, c.username);
    const closings = [closedWithin(viaG1.socket, WAIT_MS), closedWithin(viaG2.socket, WAIT_MS)];
    expect((await call(t.app, 'DELETE', `/api/proxy/dynamic/${c.accountId}`, { token: c.token })).status).toBe(200);
    for (const ms of await Promise.all(closings)) expect(ms).not.toBe(Infinity);
    expect((await tunnel(g1, web.port, c.username)).status).toBe(407);
  });

  it('a new password closes the tunnels opened with the old one; saving the same password does not', async () => {
    const c = await customer();
    const viaG1 = await tunnel(g1, web.port, c.username);
    const viaG2 = await tunnel(g2, web.port, c.username);
    // The edit form sends the password back as it was: no event, the tunnels carry on.
    const before = events.length;
    expect((await call(t.app, 'PUT', `/api/proxy/dynamic/${c.accountId}`, { token: c.token, body: { password: PROXY_PASSWORD, remark: 'renamed' } })).status).toBe(200);
    expect(events.length).toBe(before);
    expect(await stillCarries(viaG1.socket)).toBe(200);

    const closings = [closedWithin(viaG1.socket, WAIT_MS), closedWithin(viaG2.socket, WAIT_MS)];
    expect((await call(t.app, 'PUT', `/api/proxy/dynamic/${c.accountId}`, { token: c.token, body: { password: 'Changed789' } })).status).toBe(200);
    for (const ms of await Promise.all(closings)) expect(ms).not.toBe(Infinity);
    expect(events.at(-1)).toEqual({ userId: c.user.id, accountId: c.accountId, closeLive: true });
    expect((await tunnel(g2, web.port, c.username)).status).toBe(407);
    expect((await tunnel(g2, web.port, c.username, 'Changed789')).status).toBe(200);
  });

  it('a cap lowered below what was used closes the tunnels with ACCOUNT_CAP', async () => {
    const c = await customer();
    const used = await tunnel(g1, origin.port, c.username);
    expect(await exchange(used.socket, 64 * KB, 64 * KB)).toBe(64 * KB);
    await flushedAll(g1, c.accountId, used.socket);

    const open = await tunnel(g2, web.port, c.username);
    const closing = closedWithin(open.socket, WAIT_MS);
    // Setting, lowering or raising a cap makes the gateways look again; saving the same one does not.
    const before = events.length;
    expect((await call(t.app, 'PUT', `/api/proxy/dynamic/${c.accountId}`, { token: c.token, body: { limitBytes: 10 * MB } })).status).toBe(200);
    expect((await call(t.app, 'PUT', `/api/proxy/dynamic/${c.accountId}`, { token: c.token, body: { limitBytes: 20 * MB } })).status).toBe(200);
    expect((await call(t.app, 'PUT', `/api/proxy/dynamic/${c.accountId}`, { token: c.token, body: { limitBytes: 20 * MB } })).status).toBe(200);
    expect(events.length).toBe(before + 2);
    expect((await call(t.app, 'PUT', `/api/proxy/dynamic/${c.accountId}`, { token: c.token, body: { limitBytes: 64 * KB } })).status).toBe(200);
    expect(await closing).not.toBe(Infinity);
    const again = await tunnel(g2, web.port, c.username);
    expect([again.status, again.headers['x-gateway-reason']]).toEqual([403, 'ACCOUNT_CAP']);

    // Raised above what was used: admitted again as soon as the event's re-read lands (there is no polling).
    expect((await call(t.app, 'PUT', `/api/proxy/dynamic/${c.accountId}`, { token: c.token, body: { limitBytes: 10 * MB } })).status).toBe(200);
    await admitted(g2, c.username);
  });

  it('a new account works at once, and so does one enabled again', async () => {
    // Not `customer()`: nothing re-reads the store for the gateways here but the API's own events.
    const c = await gatewayCustomer(t, admin, [[64 * MB, 30]]);
    expect(events.at(-1)).toEqual({ userId: c.user.id, accountId: c.accountId });
    await admitted(g1, c.username);
    await until(async () => (await socks(g2, web.port, c.username)).rep === 0, ADMIT_MS, 'the new account over SOCKS5');

    expect((await call(t.app, 'PUT', `/api/proxy/dynamic/${c.accountId}`, { token: c.token, body: { status: 'disabled' } })).status).toBe(200);
    await until(async () => (await tunnel(g1, web.port, c.username)).headers['x-gateway-reason'] === 'ACCOUNT_DISABLED', ADMIT_MS, 'the refusal');
    expect((await call(t.app, 'PUT', `/api/proxy/dynamic/${c.accountId}`, { token: c.token, body: { status: 'active' } })).status).toBe(200);
    await admitted(g1, c.username);
    await admitted(g2, c.username);
  });

  it('a balance one gateway’s flush finds spent closes the tunnels on the other gateway', async () => {
    const c = await customer(1 * MB);
    const idle = await tunnel(g2, web.port, c.username);
    expect(idle.status).toBe(200);
    const closing = closedWithin(idle.socket, WAIT_MS);
    // Two megabytes asked through gateway 1: its byte budget cuts the tunnel where the balance is spent
    // (before byte budgets, with polling off, it carried all 2 MB; docs/gateway.md), then its flush.
    const spender = await tunnel(g1, origin.port, c.username);
    spender.socket.write(byteOriginHeader(0, 2 * MB));
    expect(await closedWithin(spender.socket, WAIT_MS)).not.toBe(Infinity);
    expect(carried(spender.socket)).toBeGreaterThanOrEqual(1 * MB);
    expect(carried(spender.socket)).toBeLessThan(2 * MB);
    await flushedAll(g1, c.accountId, spender.socket);
    expect(events.at(-1)).toEqual({ userId: c.user.id });
    expect(await closing).not.toBe(Infinity);
    const again = await tunnel(g2, web.port, c.username);
    expect([again.status, again.headers['x-gateway-reason']]).toEqual([402, 'NO_TRAFFIC']);
  });
});

import type net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call } from '../../test/auth-flows';
import { HOST, type Upstream, basic, connectTunnel, exchange, startByteOrigin, startUpstream } from '../../test/gateway-fixtures';
import { billed, closedWithin, freePortRange, gatewayCustomer, socksNoAuth, startTestGateway, until } from '../../test/store-gateway-kit';
import { signedIn } from '../../test/commerce';
import { DIALECTS, type TestApp, createTestApp } from '../../test/test-app';
import { LocalCutoffBus } from '../lib/cutoff-bus';
import type { StoreGateway } from './store/store-gateway';

const MB = 1024 * 1024;
const NEVER = 3_600_000;
/** docs/gateway.md#allowlist: a removed address loses its live connections within this. */
const CUT_MS = 2000;

/*
 * Allowlists and port endpoints through the store-backed gateway, over real sockets from loopback
 * addresses of their own (127.0.0.2 and up). `g` hears the API's events in process, as the embedded
 * default does; `far` hears nothing and never polls, like a gateway in another process without Redis
 * between its refreshes: what works there at once works by its catch-up read (admission.ts).
 */
describe.each(DIALECTS)('allowlist and port endpoints through the gateway on %s', (dialect) => {
  const bus = new LocalCutoffBus();
  let t: TestApp;
  let admin: string;
  let origin: Awaited<ReturnType<typeof startByteOrigin>>;
  let upstreams: Upstream[];
  let g: StoreGateway;
  let far: StoreGateway;
  let httpRange: [number, number];
  let socksRange: [number, number];
  const sockets: net.Socket[] = [];
  /** Each test its own loopback addresses: an address is one account's across the installation. */
  let nextAddress = 2 + (dialect === 'postgres' ? 100 : 0);
  const address = () => `127.0.0.${nextAddress++}`;

  beforeAll(async () => {
    [httpRange, socksRange] = [await freePortRange(4), await freePortRange(4)];
    t = await createTestApp(dialect, { GATEWAY_PORT_RANGE_HTTP: httpRange.join('-'), GATEWAY_PORT_RANGE_SOCKS: socksRange.join('-') }, { cutoffs: bus });
    admin = (await signedIn(t, 'admin')).token;
    origin = await startByteOrigin();
    // Three exits, so which one a session lands on tells sessions apart.
    upstreams = await Promise.all([startUpstream(), startUpstream(), startUpstream()]);
    const provider = { name: 'Three', upstreams: upstreams.map((u) => ({ url: `http://${HOST}:${u.port}` })), costPerGb: { amount: 0, currency: t.config.CURRENCY, from: '2026-01-01' } };
    expect((await call(t.app, 'POST', '/api/manage/providers', { token: admin, body: provider })).status).toBe(200);
    g = await startTestGateway(t, { cutoffs: bus, portRanges: { http: httpRange, socks5: socksRange } });
    far = await startTestGateway(t, { refreshMs: NEVER, fullReloadMs: NEVER });
  });
  afterAll(async () => {
    for (const s of sockets) s.destroy();
    await Promise.all([g?.stop(), far?.stop()]);
    await Promise.all([origin?.close(), ...(upstreams ?? []).map((u) => u.close())]);
    await t?.close();
  });

  const customer = () => gatewayCustomer(t, admin, [[64 * MB, 30]]);
  const allow = async (token: string, proxyAccountId: number, ip: string) => {
    const res = await call(t.app, 'POST', '/api/proxy/allowlist', { token, body: { proxyAccountId }, ip });
    expect(res.status).toBe(200);
    return res.body.data.id as number;
  };
  const tunnel = async (port: number, auth: string | null, from: string) => {
    const r = await connectTunnel(port, `${HOST}:${origin.port}`, auth, from);
    sockets.push(r.socket);
    return r;
  };
  /** Which upstream carried the next tunnel: their counters before and after. */
  const exitOf = async (port: number, auth: string | null, from: string) => {
    const before = upstreams.map((u) => u.carried());
    const r = await tunnel(port, auth, from);
    expect(r.status).toBe(200);
    r.socket.destroy();
    const moved = upstreams.findIndex((u, i) => u.carried() > before[i]!);
    expect(moved).toBeGreaterThanOrEqual(0);
    return moved;
  };

  it('a listed address connects without a password on both protocols and is billed to the listing account', async () => {
    const c = await customer();
    const ip = address();
    await allow(c.token, c.accountId, ip);

    const r = await tunnel(g.gateway.httpPort, null, ip);
    expect(r.status).toBe(200);
    await exchange(r.socket, 3000, 20_000);
    const s = await socksNoAuth(g.gateway.socksPort, HOST, origin.port, ip);
    sockets.push(s.socket);
    expect([s.method, s.rep]).toEqual([0x00, 0x00]);
    await exchange(s.socket, 1000, 5000);
    r.socket.destroy();
    s.socket.destroy();
    await until(async () => (await g.gateway.flush()) && (await billed(t, c.accountId)).total >= 29_000, 5000, 'both connections billed');
    expect((await billed(t, c.accountId)).accountUsed).toBeGreaterThanOrEqual(29_000);
  });

  it('an unlisted address is answered exactly as a wrong password; a listed one with credentials is billed to their account', async () => {
    const c = await customer();
    const listed = address();
    await allow(c.token, c.accountId, listed);
    const stranger = address();
    const bare = await tunnel(g.gateway.httpPort, null, stranger);
    const wrong = await tunnel(g.gateway.httpPort, basic(c.username, 'Wrong1234'), stranger);
    expect(bare.status).toBe(407);
    expect([bare.status, bare.headers['x-gateway-reason'], bare.body]).toEqual([wrong.status, wrong.headers['x-gateway-reason'], wrong.body]);
    const s = await socksNoAuth(g.gateway.socksPort, HOST, origin.port, stranger);
    expect(s.method).toBe(0xff);

    // Credentials win: another customer's login from the listed address is theirs to pay.
    const d = await customer();
    const r = await tunnel(g.gateway.httpPort, basic(d.username, 'Secret123'), listed);
    expect(r.status).toBe(200);
    await exchange(r.socket, 500, 5000);
    r.socket.destroy();
    await until(async () => (await g.gateway.flush()) && (await billed(t, d.accountId)).total > 5000, 5000, 'billed to the credentials');
    expect((await billed(t, c.accountId)).total).toBe(0);
  });

  it('a removed address and an account that now requires its password lose their live connections within 2 s', async () => {
    const c = await customer();
    const ip = address();
    const entry = await allow(c.token, c.accountId, ip);
    const live = await tunnel(g.gateway.httpPort, null, ip);
    expect(live.status).toBe(200);
    // `far` never polls and hears no event: it cuts at its next refresh, which this test does not wait for.
    expect((await call(t.app, 'DELETE', `/api/proxy/allowlist/${entry}`, { token: c.token })).status).toBe(200);
    expect(await closedWithin(live.socket, CUT_MS)).toBeLessThan(CUT_MS);
    expect((await tunnel(g.gateway.httpPort, null, ip)).status).toBe(407);

    await allow(c.token, c.accountId, ip);
    const again = await tunnel(g.gateway.httpPort, null, ip);
    expect(again.status).toBe(200);
    expect((await call(t.app, 'PUT', `/api/proxy/dynamic/${c.accountId}`, { token: c.token, body: { requirePassword: true } })).body.data.requirePassword).toBe(true);
    expect(await closedWithin(again.socket, CUT_MS)).toBeLessThan(CUT_MS);
    expect((await tunnel(g.gateway.httpPort, null, ip)).status).toBe(407);
    expect((await tunnel(g.gateway.httpPort, basic(c.username, 'Secret123'), ip)).status).toBe(200);
  });

  it('what the API has just made works at once on a gateway that has not read the store since', async () => {
    const c = await customer();
    // A login made a moment ago on "another process": the catch-up read finds it.
    expect((await tunnel(far.gateway.httpPort, basic(c.username, 'Secret123'), address())).status).toBe(200);
    const ip = address();
    await allow(c.token, c.accountId, ip);
    expect((await tunnel(far.gateway.httpPort, null, ip)).status).toBe(200);
    const s = await socksNoAuth(far.gateway.socksPort, HOST, origin.port, ip);
    sockets.push(s.socket);
    expect([s.method, s.rep]).toEqual([0x00, 0x00]);
  });

  it('port endpoints: each extracted port keeps its session on the exit its username line has; no other customer may use it', async () => {
    const c = await customer();
    const ip = address();
    await allow(c.token, c.accountId, ip);
    const key = (await call(t.app, 'POST', `/api/proxy/dynamic/${c.accountId}/extract-key`, { token: c.token })).body.data.key as string;
    const got = await call(t.app, 'GET', `/api/extract?key=${key}&num=3&life=30&format=json`, { ip });
    expect(got.status).toBe(200);
    const items = got.body.data.items as { port: number; session: string; username: string | null }[];
    expect(items).toHaveLength(3);
    for (const item of items) {
      expect(item.port).toBeGreaterThanOrEqual(httpRange[0]);
      expect(item.port).toBeLessThanOrEqual(httpRange[1]);
      expect(item.username).toBeNull();
      const exit = await exitOf(item.port, null, ip);
      expect(await exitOf(item.port, null, ip)).toBe(exit);
      // The username line with the same session, with credentials, on the main port: the same exit.
      expect(await exitOf(g.gateway.httpPort, basic(`${c.username}-session-${item.session}-life-30`, 'Secret123'), ip)).toBe(exit);
    }
    // A port nobody leased rotates for a listed address; another customer's leased port is refused as unlisted.
    const leased = new Set(items.map((i) => i.port));
    const free = Array.from({ length: httpRange[1] - httpRange[0] + 1 }, (_, i) => httpRange[0] + i).find((p) => !leased.has(p));
    if (free !== undefined) expect((await tunnel(free, null, ip)).status).toBe(200);
    const other = await customer();
    const otherIp = address();
    await allow(other.token, other.accountId, otherIp);
    expect((await tunnel(items[0]!.port, null, otherIp)).status).toBe(407);
    expect((await tunnel(items[0]!.port, null, address())).status).toBe(407);

    const socks = await call(t.app, 'GET', `/api/extract?key=${key}&num=1&protocol=socks5&format=json`, { ip });
    const socksPort = socks.body.data.items[0].port as number;
    expect(socksPort).toBeGreaterThanOrEqual(socksRange[0]);
    const s = await socksNoAuth(socksPort, HOST, origin.port, ip);
    sockets.push(s.socket);
    expect([s.method, s.rep]).toEqual([0x00, 0x00]);
  });
});

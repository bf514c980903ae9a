import type net from 'node:net';
import { Server as ProxyChainServer } from 'proxy-chain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call } from '../../test/auth-flows';
import { signedIn } from '../../test/commerce';
import { HOST, basic, closedPort, connectTunnel, exchange, plainGet, socksConnect, startByteOrigin, startHttpOrigin, startSilentServer } from '../../test/gateway-fixtures';
import { PROXY_PASSWORD, carried, gatewayCustomer, startTestGateway, until } from '../../test/store-gateway-kit';
import { DIALECTS, type TestApp, createTestApp } from '../../test/test-app';
import type { StoreGateway } from './store/store-gateway';

/** A local upstream proxy that counts the tunnels it opened, and can be killed and brought back on its port. */
async function upstreamProxy(port = 0) {
  const server = new ProxyChainServer({ port, host: HOST });
  await server.listen();
  return { port: server.port, tunnels: () => server.stats.connectRequestCount, close: () => server.close(true) };
}

const CONNECT_TIMEOUT_MS = 3000;

/**
 * Providers through the store-backed gateway, over real sockets (docs/gateway.md#providers): three local
 * upstream proxies, one provider each.
 */
describe.each(DIALECTS)('gateway providers on %s', (dialect) => {
  let t: TestApp;
  let admin: string;
  let origin: Awaited<ReturnType<typeof startByteOrigin>>;
  let ups: Awaited<ReturnType<typeof upstreamProxy>>[];
  let ids: number[];
  let g: StoreGateway;
  let far: StoreGateway;
  let c: Awaited<ReturnType<typeof gatewayCustomer>>;

  const provider = (name: string, port: number, weight: number) => ({
    name,
    upstreams: [{ url: `http://${HOST}:${port}` }],
    weight,
    costPerGb: { amount: 100, currency: t.config.CURRENCY, from: '2026-01-01' },
  });
  const tunnel = async (user = c.username) => {
    const started = Date.now();
    const tun = await connectTunnel(g.gateway.httpPort, `${HOST}:${origin.port}`, basic(user, PROXY_PASSWORD));
    return { ...tun, ms: Date.now() - started };
  };

  beforeAll(async () => {
    t = await createTestApp(dialect);
    admin = (await signedIn(t, 'admin')).token;
    origin = await startByteOrigin();
    ups = await Promise.all([upstreamProxy(), upstreamProxy(), upstreamProxy()]);
    ids = [];
    for (const [i, weight] of [500, 300, 200].entries()) {
      const res = await call(t.app, 'POST', '/api/manage/providers', { token: admin, body: provider(`P${i}`, ups[i]!.port, weight) });
      expect(res.status).toBe(200);
      ids.push(res.body.data.id as number);
    }
    c = await gatewayCustomer(t, admin, [[1024 ** 3, 30]]);
    g = await startTestGateway(t, { refreshMs: 200, connectTimeoutMs: CONNECT_TIMEOUT_MS });
    far = await startTestGateway(t, { refreshMs: 200 });
  });
  afterAll(async () => {
    await Promise.all([g?.stop(), far?.stop()]);
    await Promise.all([origin?.close(), ...(ups ?? []).map((u) => u.close())]);
    await t?.close();
  });

  it('splits 1,000 tunnels by weight', async () => {
    const before = ups.map((u) => u.tunnels());
    for (let batch = 0; batch < 40; batch++) {
      const tunnels = await Promise.all(Array.from({ length: 25 }, () => tunnel()));
      expect(tunnels.map((x) => x.status)).toEqual(Array(25).fill(200));
      for (const x of tunnels) x.socket.destroy();
    }
    // Smooth weighted round-robin: exact at 5:3:2 over whole cycles (1,000 is 100 of them).
    expect(ups.map((u, k) => u.tunnels() - before[k]!)).toEqual([500, 300, 200]);
  });

  it('counts each provider exactly the bytes its tunnels carried, in the flush that bills the customer', async () => {
    expect(await g.gateway.flush()).toBe(true);
    const start = await perProvider();
    const bytes = new Map<number, number>(ids.map((id) => [id, 0]));
    for (let i = 0; i < 20; i++) {
      const counts = ups.map((u) => u.tunnels());
      const tun = await tunnel();
      expect(tun.status).toBe(200);
      await exchange(tun.socket, 10 + i, 1000 + 37 * i);
      const through = ups.findIndex((u, k) => u.tunnels() === counts[k]! + 1);
      bytes.set(ids[through]!, bytes.get(ids[through]!)! + carried(tun.socket));
      tun.socket.destroy();
    }
    const billedBefore = await billedOf();
    expect(await g.gateway.flush()).toBe(true);
    const end = await perProvider();
    expect(ids.map((id) => (end.get(id) ?? 0) - (start.get(id) ?? 0))).toEqual(ids.map((id) => bytes.get(id)));
    // Nothing counted for a provider that the customer was not billed for, nor the other way round.
    const total = [...end.values()].reduce((a, b) => a + b, 0);
    expect(total).toBe(await billedOf());
    expect((await billedOf()) - billedBefore).toBe([...bytes.values()].reduce((a, b) => a + b, 0));
    // The admin's grant was given, not sold: no revenue.
    const revenue = await t.db.db.selectFrom('provider_usage_daily').select('revenue_micro').execute();
    expect(revenue.every((r) => Number(r.revenue_micro) === 0)).toBe(true);
    const listed = await call(t.app, 'GET', '/api/manage/providers', { token: admin });
    expect(listed.body.data.items.map((p: { usage: { bytesToday: number } }) => p.usage.bytesToday)).toEqual(ids.map((id) => end.get(id)));
  });

  it('moves new tunnels off a provider killed mid-run: each client gets its tunnel within the connect timeout, every gateway stops choosing it', async () => {
    const killed = ups[1]!;
    const port = killed.port;
    const answers: { status: number; ms: number }[] = [];
    let sockets: net.Socket[] = [];
    for (let i = 0; i < 40; i++) {
      if (i === 10) await killed.close();
      const batch = await Promise.all([tunnel(), socksTunnel()]);
      for (const b of batch) {
        answers.push({ status: b.status, ms: b.ms });
        sockets.push(b.socket);
      }
      for (const s of sockets) s.destroy();
      sockets = [];
    }
    // One retry on another provider: no client saw the failure, none waited past the connect timeout.
    expect(answers.filter((a) => a.status !== 200)).toEqual([]);
    expect(Math.max(...answers.map((a) => a.ms))).toBeLessThan(CONNECT_TIMEOUT_MS);
    expect(g.health.providerUp(ids[1]!)).toBe(false);
    const row = await until(() => t.db.db.selectFrom('provider_health').selectAll().where('provider_id', '=', ids[1]!).executeTakeFirst(), 5000, 'the shared down');
    expect([row.state, row.last_error]).toEqual(['down', 'UPSTREAM_REFUSED']);
    // The other process saw no failure itself: it learns it from the store within a refresh.
    await until(() => !far.health.providerUp(ids[1]!), 5000, 'the other gateway to take it out');
    const listed = await call(t.app, 'GET', '/api/manage/providers', { token: admin });
    const shown = listed.body.data.items.find((p: { id: number }) => p.id === ids[1]);
    expect(shown.health.state).toBe('down');

    // It comes back, and the store says so (as the prober does when a probe passes): traffic returns to it.
    ups[1] = await upstreamProxy(port);
    await t.db.db.updateTable('provider_health').set({ state: 'up', since: new Date(t.clock.now().getTime() + 1000).toISOString(), retry_at: null }).where('provider_id', '=', ids[1]!).execute();
    await until(() => g.health.providerUp(ids[1]!) && far.health.providerUp(ids[1]!), 5000, 'both gateways to put it back');
    for (let i = 0; i < 10; i++) (await tunnel()).socket.destroy();
    expect(ups[1]!.tunnels()).toBe(3);
  });

  it('a provider that swallows connections costs a client half the connect timeout, then its breaker takes it out', async () => {
    const silent = await startSilentServer();
    try {
      const res = await call(t.app, 'POST', '/api/manage/providers', { token: admin, body: provider('Silent', silent.port, 1000) });
      const id = res.body.data.id as number;
      const rotating = { account: c.username, country: null, state: null, city: null, session: null, lifeMinutes: 10 };
      await until(() => [1, 2, 3, 4].some(() => (g.chooser.choose(rotating, 0) as { providerId?: number }).providerId === id), 5000, 'the gateway to load the new provider');
      // Half of them go to the silent provider first (its weight is half the total): at least 5 in a row fail there.
      const answers = await Promise.all(Array.from({ length: 16 }, () => tunnel()));
      for (const x of answers) x.socket.destroy();
      expect(answers.map((x) => x.status)).toEqual(Array(16).fill(200));
      // Some went to the silent one first: they waited about half the timeout, never the whole.
      expect(Math.max(...answers.map((x) => x.ms))).toBeGreaterThanOrEqual(CONNECT_TIMEOUT_MS / 2 - 100);
      expect(Math.max(...answers.map((x) => x.ms))).toBeLessThan(CONNECT_TIMEOUT_MS);
      expect(g.health.providerUp(id)).toBe(false);
      const after = await tunnel();
      after.socket.destroy();
      expect([after.status, after.ms < CONNECT_TIMEOUT_MS / 2]).toEqual([200, true]);
    } finally {
      await silent.close();
    }
  });

  it('plain HTTP through a provider that refuses is answered 502 and counted: its fifth failure takes it out, the next requests go elsewhere', async () => {
    const web = await startHttpOrigin();
    try {
      const res = await call(t.app, 'POST', '/api/manage/providers', { token: admin, body: provider('Refusing', await closedPort(), 1000) });
      const id = res.body.data.id as number;
      const rotating = { account: c.username, country: null, state: null, city: null, session: null, lifeMinutes: 10 };
      await until(() => (g.chooser.choose(rotating, 0) as { providerId?: number }).providerId === id, 5000, 'the gateway to load the new provider');
      const answers = [];
      // One at a time: plain HTTP has no failover (a request's body may be gone), so each one sent there fails.
      for (let i = 0; i < 30; i++) answers.push(await plainGet(g.gateway.httpPort, `http://${HOST}:${web.port}/bytes/10`, basic(c.username, PROXY_PASSWORD)));
      // Half the weight: about every other request until its breaker trips on the fifth refusal in a row, never after.
      expect(answers.filter((a) => a.status !== 200).map((a) => [a.status, a.reason])).toEqual(Array(5).fill([502, 'UPSTREAM_REFUSED']));
      expect(answers.slice(-10).map((a) => [a.status, a.body.length])).toEqual(Array(10).fill([200, 10]));
      expect(g.health.providerUp(id)).toBe(false);
      const row = await until(() => t.db.db.selectFrom('provider_health').selectAll().where('provider_id', '=', id).executeTakeFirst(), 5000, 'the shared down');
      expect([row.state, row.last_error]).toEqual(['down', 'UPSTREAM_REFUSED']);
    } finally {
      await web.close();
    }
  });

  async function perProvider(): Promise<Map<number, number>> {
    const rows = await t.db.db.selectFrom('provider_usage_daily').select(['provider_id', 'bytes']).execute();
    return new Map(rows.map((r) => [r.provider_id, Number(r.bytes)]));
  }

  async function billedOf(): Promise<number> {
    const rows = await t.db.db.selectFrom('usage_hourly').select(['bytes_up', 'bytes_down']).where('account_id', '=', c.accountId).execute();
    return rows.reduce((n, r) => n + Number(r.bytes_up) + Number(r.bytes_down), 0);
  }

  /** A SOCKS5 tunnel to the origin, timed like `tunnel`. */
  async function socksTunnel() {
    const started = Date.now();
    const s = await socksConnect(g.gateway.socksPort, c.username, PROXY_PASSWORD, HOST, origin.port);
    return { status: s.rep === 0 ? 200 : 500 + s.rep, socket: s.socket, ms: Date.now() - started };
  }
});

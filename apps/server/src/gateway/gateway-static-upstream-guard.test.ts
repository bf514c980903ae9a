import http from 'node:http';
import type net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call } from '../../test/auth-flows';
import { seedCatalogue, signedIn } from '../../test/commerce';
import { HOST, type Upstream, basic, closedPort, connectTunnel, socksConnect, startHttpOrigin, startUpstream } from '../../test/gateway-fixtures';
import { startTestGateway, until } from '../../test/store-gateway-kit';
import { DIALECTS, type TestApp, createTestApp } from '../../test/test-app';
import { SOCKS_REPLY } from './statuses';
import type { StoreGateway } from './store/store-gateway';

/*
 * A static IP's upstream is dialed only where direct egress may go (docs/security.md#static-ip-upstreams).
 * The import refuses non-public upstreams; this covers a name that resolved to a public address when it
 * was imported and points inward now. The test app imports with the test-only switch on (so `localhost`
 * and 127.0.0.1 get in, standing for such a name), and the gateway runs with it off, as in production.
 * Direct egress is off, so a byte that left any other way would be NO_SUPPLY, not DESTINATION_FORBIDDEN.
 */
describe.each(DIALECTS)('a static IP\'s upstream at a non-public address on %s', (dialect) => {
  let t: TestApp;
  let admin: string;
  let regionId: number;
  let businessId: number;
  let web: Awaited<ReturnType<typeof startHttpOrigin>>;
  let upstream: Upstream;
  let g: StoreGateway;
  const sockets: net.Socket[] = [];
  let nextIp = 60;

  beforeAll(async () => {
    t = await createTestApp(dialect);
    await seedCatalogue(t);
    admin = (await signedIn(t, 'admin')).token;
    expect((await call(t.app, 'POST', '/api/manage/supply', { token: admin, body: { directEgress: false } })).status).toBe(200);
    regionId = (await call(t.app, 'GET', '/api/static-region')).body.data.items[0].id;
    businessId = (await call(t.app, 'GET', '/api/business')).body.data.items[0].id;
    web = await startHttpOrigin();
    upstream = await startUpstream();
    g = await startTestGateway(t, { allowPrivateDestinations: false });
  });
  afterAll(async () => {
    for (const s of sockets) s.destroy();
    await g?.stop();
    await Promise.all([web?.close(), upstream?.close()]);
    await t?.close();
  });

  /** A static IP on a row with this upstream, granted to a new customer: its login. */
  async function staticLogin(upstreamUrl: string): Promise<{ username: string; password: string }> {
    const imported = await call(t.app, 'POST', '/api/manage/static-inventory', { token: admin, body: { regionId, lines: `${upstreamUrl} 198.51.100.${nextIp++}` } });
    expect(imported.body.data.created).toBe(1);
    const c = await signedIn(t);
    expect((await call(t.app, 'POST', '/api/manage/static-recharge', { token: admin, body: { userId: c.user.id, regionId, businessId, quantity: 1, days: 30, note: 'guard test' } })).status).toBe(200);
    const [login] = (await call(t.app, 'GET', '/api/proxy/static', { token: c.token })).body.data.items as { username: string; password: string }[];
    await until(() => g.cache.authenticate(login!.username, login!.password).ok, 10_000, 'the gateway to know the static login');
    return login!;
  }

  const plainGet = (login: { username: string; password: string }) =>
    new Promise<{ status: number; reason: string | undefined }>((resolve, reject) => {
      const req = http.get(
        { host: HOST, port: g.gateway.httpPort, path: `http://${HOST}:${web.port}/bytes/10`, agent: false, headers: { 'proxy-authorization': basic(login.username, login.password), connection: 'close' } },
        (res) => {
          res.resume();
          res.on('end', () => resolve({ status: res.statusCode ?? 0, reason: res.headers['x-gateway-reason'] as string | undefined }));
        },
      );
      req.on('error', reject);
    });

  it.each([
    ['a name that now resolves to loopback', () => `http://localhost:${upstream.port}`],
    ['a loopback literal', () => `http://${HOST}:${upstream.port}`],
  ])('an HTTP upstream at %s is refused DESTINATION_FORBIDDEN over CONNECT, SOCKS5 and plain HTTP, and never dialed', async (_what, url) => {
    const login = await staticLogin(url());
    const before = upstream.carried();
    const connect = await connectTunnel(g.gateway.httpPort, `${HOST}:${web.port}`, basic(login.username, login.password));
    sockets.push(connect.socket);
    expect([connect.status, connect.headers['x-gateway-reason']]).toEqual([403, 'DESTINATION_FORBIDDEN']);
    const socks = await socksConnect(g.gateway.socksPort, login.username, login.password, HOST, web.port);
    sockets.push(socks.socket);
    expect(socks.rep).toBe(SOCKS_REPLY.NOT_ALLOWED);
    expect(await plainGet(login)).toEqual({ status: 403, reason: 'DESTINATION_FORBIDDEN' });
    expect(upstream.carried()).toBe(before);
  });

  it('a SOCKS5 upstream whose name resolves to loopback is refused before any connection (its port is closed: a dial would say UPSTREAM_REFUSED)', async () => {
    const login = await staticLogin(`socks5://up:pw@localhost:${await closedPort()}`);
    const connect = await connectTunnel(g.gateway.httpPort, `${HOST}:${web.port}`, basic(login.username, login.password));
    sockets.push(connect.socket);
    expect([connect.status, connect.headers['x-gateway-reason']]).toEqual([403, 'DESTINATION_FORBIDDEN']);
    const socks = await socksConnect(g.gateway.socksPort, login.username, login.password, HOST, web.port);
    sockets.push(socks.socket);
    expect(socks.rep).toBe(SOCKS_REPLY.NOT_ALLOWED);
    expect(await plainGet(login)).toEqual({ status: 403, reason: 'DESTINATION_FORBIDDEN' });
  });
});

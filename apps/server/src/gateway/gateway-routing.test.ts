import http from 'node:http';
import net from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  FakeAuthority,
  HOST,
  type Upstream,
  basic,
  closedPort,
  connectTunnel,
  exchange,
  plainGet,
  socksConnect,
  startByteOrigin,
  startGateway,
  startHttpOrigin,
  startSilentServer,
  startUpstream,
  waitFor,
} from '../../test/gateway-fixtures';
import { SOCKS_REPLY } from './statuses';
import { UpstreamExitChooser } from './upstream-exit-chooser';

describe('routing through three local upstreams tagged US, DE, JP', () => {
  let origin: Awaited<ReturnType<typeof startByteOrigin>>;
  let web: Awaited<ReturnType<typeof startHttpOrigin>>;
  let us: Upstream;
  let de: Upstream;
  let jp: Upstream;
  let g: Awaited<ReturnType<typeof startGateway>>;
  let t = 1_700_000_000_000;
  const authority = new FakeAuthority();
  authority.add('router01');
  const chooser = new UpstreamExitChooser({}, { now: () => t });
  const target = () => `${HOST}:${origin.port}`;
  const carried = () => [us.carried(), de.carried(), jp.carried()];
  /** Opens a tunnel as `username` through CONNECT and runs a tiny exchange, so the exit carried it. */
  async function viaConnect(username: string) {
    const tun = await connectTunnel(g.gw.httpPort, target(), basic(username, 'pw'));
    expect(tun.status).toBe(200);
    await exchange(tun.socket, 10, 10);
  }
  async function viaSocks(username: string) {
    const s = await socksConnect(g.gw.socksPort, username, 'pw', HOST, origin.port);
    expect(s.rep).toBe(0);
    await exchange(s.socket, 10, 10);
  }
  /** Which upstream carried the next call: the index whose count went up. */
  async function exitOf(call: () => Promise<unknown>): Promise<string> {
    const before = carried();
    await call();
    const after = carried();
    const moved = after.map((n, i) => n - before[i]!);
    expect(moved.reduce((a, b) => a + b, 0)).toBe(1);
    return ['US', 'DE', 'JP'][moved.indexOf(1)]!;
  }

  beforeAll(async () => {
    origin = await startByteOrigin();
    web = await startHttpOrigin();
    [us, de, jp] = await Promise.all([startUpstream(), startUpstream(), startUpstream()]);
    g = await startGateway({ chooser }, authority);
  });
  beforeEach(() => {
    chooser.update({
      upstreams: [
        { id: 'us', url: us.url, country: 'US', state: 'ca' },
        { id: 'de', url: de.url, country: 'DE' },
        { id: 'jp', url: jp.url, country: 'JP' },
      ],
    });
  });
  afterAll(async () => {
    await g.gw.stop();
    await Promise.all([origin.close(), web.close(), us.close(), de.close(), jp.close()]);
  });

  it('routes each protocol to the exit of the requested region', async () => {
    expect(await exitOf(() => viaConnect('router01-country-de'))).toBe('DE');
    expect(await exitOf(() => viaSocks('router01-country-jp'))).toBe('JP');
    expect(await exitOf(() => viaConnect('router01-country-us-state-ca'))).toBe('US');
    const before = carried();
    const plain = await plainGet(g.gw.httpPort, `http://${HOST}:${web.port}/bytes/100`, basic('router01-country-jp', 'pw'));
    expect(plain.status).toBe(200);
    expect(carried()[2]).toBe(before[2]! + 1);
  });

  it('rotates: connections without a session spread evenly over the exits', async () => {
    const before = carried();
    for (let i = 0; i < 6; i++) await viaConnect('router01');
    for (let i = 0; i < 6; i++) await viaSocks('router01');
    expect(carried().map((n, i) => n - before[i]!)).toEqual([4, 4, 4]);
  });

  it('holds a sticky session on one exit for its lifetime, over both protocols, then moves it', async () => {
    const user = 'router01-session-abc123-life-2';
    const first = await exitOf(() => viaConnect(user));
    for (let i = 0; i < 4; i++) {
      t += 25_000;
      expect(await exitOf(() => (i % 2 ? viaConnect(user) : viaSocks(user)))).toBe(first);
    }
    t += 2 * 60_000 - 4 * 25_000;
    const moved = await exitOf(() => viaConnect(user));
    expect(moved).not.toBe(first);
    expect(await exitOf(() => viaSocks(user))).toBe(moved);
  });

  it('refuses a region without supply: 502 NO_SUPPLY, SOCKS network unreachable', async () => {
    const tun = await connectTunnel(g.gw.httpPort, target(), basic('router01-country-fr', 'pw'));
    expect([tun.status, tun.headers['x-gateway-reason']]).toEqual([502, 'NO_SUPPLY']);
    expect(tun.body).toMatch(/^NO_SUPPLY: /);
    const s = await socksConnect(g.gw.socksPort, 'router01-country-fr', 'pw', HOST, origin.port);
    expect(s.rep).toBe(SOCKS_REPLY.NETWORK_UNREACHABLE);
    const plain = await plainGet(g.gw.httpPort, `http://${HOST}:${web.port}/bytes/1`, basic('router01-country-fr', 'pw'));
    expect([plain.status, plain.reason]).toEqual([502, 'NO_SUPPLY']);
  });

  it('passes the upstream its credentials, and maps an upstream that refuses them to UPSTREAM_AUTH', async () => {
    const locked = await startUpstream({ user: 'supplier', pass: 's3cret' });
    try {
      chooser.update({ upstreams: [{ id: 'ok', url: locked.url, country: 'US' }] });
      const before = carried();
      await viaConnect('router01-country-us');
      expect(locked.carried()).toBe(1);
      expect(carried()).toEqual(before);
      chooser.update({ upstreams: [{ id: 'bad', url: `http://supplier:wrong@${HOST}:${locked.port}`, country: 'US' }] });
      const tun = await connectTunnel(g.gw.httpPort, target(), basic('router01-country-us', 'pw'));
      expect([tun.status, tun.headers['x-gateway-reason']]).toEqual([502, 'UPSTREAM_AUTH']);
      const s = await socksConnect(g.gw.socksPort, 'router01-country-us', 'pw', HOST, origin.port);
      expect(s.rep).toBe(SOCKS_REPLY.GENERAL_FAILURE);
      const plain = await plainGet(g.gw.httpPort, `http://${HOST}:${web.port}/bytes/1`, basic('router01-country-us', 'pw'));
      expect([plain.status, plain.reason]).toEqual([502, 'UPSTREAM_AUTH']);
    } finally {
      await locked.close();
    }
  });

  it('maps an upstream that is down to 502 UPSTREAM_REFUSED, SOCKS connection refused', async () => {
    chooser.update({ upstreams: [{ id: 'down', url: `http://${HOST}:${await closedPort()}`, country: 'US' }] });
    const tun = await connectTunnel(g.gw.httpPort, target(), basic('router01-country-us', 'pw'));
    expect([tun.status, tun.headers['x-gateway-reason']]).toEqual([502, 'UPSTREAM_REFUSED']);
    const s = await socksConnect(g.gw.socksPort, 'router01-country-us', 'pw', HOST, origin.port);
    expect(s.rep).toBe(SOCKS_REPLY.CONNECTION_REFUSED);
    const plain = await plainGet(g.gw.httpPort, `http://${HOST}:${web.port}/bytes/1`, basic('router01-country-us', 'pw'));
    expect([plain.status, plain.reason]).toEqual([502, 'UPSTREAM_REFUSED']);
  });

  it('maps an upstream that never answers to 504 UPSTREAM_TIMEOUT, SOCKS host unreachable', async () => {
    const silent = await startSilentServer();
    const quickChooser = new UpstreamExitChooser({ upstreams: [{ id: 'mute', url: `http://${HOST}:${silent.port}`, country: null }] });
    const quick = await startGateway({ chooser: quickChooser, connectTimeoutMs: 300, responseTimeoutMs: 300 }, authority);
    try {
      const t0 = Date.now();
      const tun = await connectTunnel(quick.gw.httpPort, target(), basic('router01', 'pw'));
      expect([tun.status, tun.headers['x-gateway-reason']]).toEqual([504, 'UPSTREAM_TIMEOUT']);
      expect(Date.now() - t0).toBeLessThan(3000);
      const s = await socksConnect(quick.gw.socksPort, 'router01', 'pw', HOST, origin.port);
      expect(s.rep).toBe(SOCKS_REPLY.HOST_UNREACHABLE);
      // A plain request is not left hanging either: through a silent HTTP upstream, a silent SOCKS5
      // upstream, and straight to a silent origin.
      const plain = await plainGet(quick.gw.httpPort, `http://${HOST}:${web.port}/bytes/1`, basic('router01', 'pw'));
      expect([plain.status, plain.reason]).toEqual([504, 'UPSTREAM_TIMEOUT']);
      expect(plain.body).toMatch(/^UPSTREAM_TIMEOUT: /);
      quickChooser.update({ upstreams: [{ id: 'mute-socks', url: `socks5://u:p@${HOST}:${silent.port}`, country: null }] });
      const viaSocks = await plainGet(quick.gw.httpPort, `http://${HOST}:${web.port}/bytes/1`, basic('router01', 'pw'));
      expect([viaSocks.status, viaSocks.reason]).toEqual([504, 'UPSTREAM_TIMEOUT']);
      quickChooser.update({ direct: true });
      const direct = await plainGet(quick.gw.httpPort, `http://${HOST}:${silent.port}/`, basic('router01', 'pw'));
      expect([direct.status, direct.reason]).toEqual([504, 'UPSTREAM_TIMEOUT']);
    } finally {
      await quick.gw.stop();
      await silent.close();
    }
  });

  it('maps a name that does not resolve to 502 UPSTREAM_UNREACHABLE, SOCKS host unreachable', async () => {
    // RFC 6761: .invalid never resolves.
    chooser.update({ direct: true });
    const tun = await connectTunnel(g.gw.httpPort, 'nowhere.invalid:80', basic('router01', 'pw'));
    expect([tun.status, tun.headers['x-gateway-reason']]).toEqual([502, 'UPSTREAM_UNREACHABLE']);
    const s = await socksConnect(g.gw.socksPort, 'router01', 'pw', 'nowhere.invalid', 80);
    expect(s.rep).toBe(SOCKS_REPLY.HOST_UNREACHABLE);
    const plain = await plainGet(g.gw.httpPort, 'http://nowhere.invalid/', basic('router01', 'pw'));
    expect([plain.status, plain.reason]).toEqual([502, 'UPSTREAM_UNREACHABLE']);
    for (const url of ['http://nowhere.invalid:3128', 'socks5://u:p@nowhere.invalid:1080']) {
      chooser.update({ upstreams: [{ id: 'lost', url, country: null }] });
      const t2 = await connectTunnel(g.gw.httpPort, target(), basic('router01', 'pw'));
      expect([t2.status, t2.headers['x-gateway-reason']], url).toEqual([502, 'UPSTREAM_UNREACHABLE']);
      const p2 = await plainGet(g.gw.httpPort, `http://${HOST}:${web.port}/bytes/1`, basic('router01', 'pw'));
      expect([p2.status, p2.reason], url).toEqual([502, 'UPSTREAM_UNREACHABLE']);
    }
  });

  it('maps an upstream that refuses the target to 502 UPSTREAM_REJECTED, SOCKS not allowed', async () => {
    // An HTTP upstream that answers every CONNECT 403.
    const forbidding = net.createServer((sock) => {
      sock.on('error', () => undefined);
      sock.once('data', () => sock.end('HTTP/1.1 403 Forbidden\r\nContent-Length: 0\r\n\r\n'));
    });
    await new Promise<void>((r) => forbidding.listen(0, HOST, r));
    // A SOCKS5 upstream (another gateway) whose account has no traffic: it answers "not allowed".
    const supplierAuth = new FakeAuthority();
    supplierAuth.add('broke', { balance: 0 });
    const supplier = await startGateway({ chooser: new UpstreamExitChooser({ direct: true }) }, supplierAuth);
    try {
      chooser.update({ upstreams: [{ id: 'no', url: `http://${HOST}:${(forbidding.address() as net.AddressInfo).port}`, country: null }] });
      const tun = await connectTunnel(g.gw.httpPort, target(), basic('router01', 'pw'));
      expect([tun.status, tun.headers['x-gateway-reason']]).toEqual([502, 'UPSTREAM_REJECTED']);
      const s = await socksConnect(g.gw.socksPort, 'router01', 'pw', HOST, origin.port);
      expect(s.rep).toBe(SOCKS_REPLY.NOT_ALLOWED);

      chooser.update({ upstreams: [{ id: 'broke', url: `socks5://broke:pw@${HOST}:${supplier.gw.socksPort}`, country: null }] });
      const t2 = await connectTunnel(g.gw.httpPort, target(), basic('router01', 'pw'));
      expect([t2.status, t2.headers['x-gateway-reason']]).toEqual([502, 'UPSTREAM_REJECTED']);
      const s2 = await socksConnect(g.gw.socksPort, 'router01', 'pw', HOST, origin.port);
      expect(s2.rep).toBe(SOCKS_REPLY.NOT_ALLOWED);
      const plain = await plainGet(g.gw.httpPort, `http://${HOST}:${web.port}/bytes/1`, basic('router01', 'pw'));
      expect([plain.status, plain.reason]).toEqual([502, 'UPSTREAM_REJECTED']);
    } finally {
      await supplier.gw.stop();
      await new Promise((r) => forbidding.close(r));
    }
  });

  it('keeps a long plain request alive while rotating template sessions pass by the hundred', async () => {
    // Every rotating request renders a new upstream URL; none may cost a request in flight its connection.
    chooser.update({ template: `http://cust-session-{session}:pw@${HOST}:${us.port}` });
    const long = { received: 0, closed: false };
    const req = http.get({ host: HOST, port: g.gw.httpPort, path: `http://${HOST}:${web.port}/stream/20000`, agent: false, headers: { 'proxy-authorization': basic('router01-country-fr', 'pw') } }, (res) => {
      expect(res.statusCode).toBe(200);
      res.on('data', (c: Buffer) => (long.received += c.length));
      res.on('close', () => (long.closed = true));
    });
    req.on('error', () => (long.closed = true));
    try {
      await waitFor(() => long.received > 0, 5000, 'the long response');
      for (let i = 0; i < 300; i++) {
        const r = await plainGet(g.gw.httpPort, `http://${HOST}:${web.port}/bytes/10`, basic('router01-country-fr', 'pw'));
        expect(r.status).toBe(200);
      }
      const before = long.received;
      await waitFor(() => long.received > before, 5000, 'the long response to go on');
      expect(long.closed).toBe(false);
    } finally {
      req.destroy();
    }
  });

  it('maps a target that refuses a direct connection to 502 UPSTREAM_REFUSED, SOCKS connection refused', async () => {
    chooser.update({ direct: true });
    const port = await closedPort();
    const tun = await connectTunnel(g.gw.httpPort, `${HOST}:${port}`, basic('router01', 'pw'));
    expect([tun.status, tun.headers['x-gateway-reason']]).toEqual([502, 'UPSTREAM_REFUSED']);
    const s = await socksConnect(g.gw.socksPort, 'router01', 'pw', HOST, port);
    expect(s.rep).toBe(SOCKS_REPLY.CONNECTION_REFUSED);
    const plain = await plainGet(g.gw.httpPort, `http://${HOST}:${port}/`, basic('router01', 'pw'));
    expect([plain.status, plain.reason]).toEqual([502, 'UPSTREAM_REFUSED']);
  });

  it('chains to a SOCKS5 upstream with credentials, from both listeners', async () => {
    // Another gateway (direct egress) plays the SOCKS5 supplier.
    const supplierAuth = new FakeAuthority();
    const supplierAccount = supplierAuth.add('supplier', { password: 'p@ss:word' });
    const supplier = await startGateway({ chooser: new UpstreamExitChooser({ direct: true }) }, supplierAuth);
    try {
      chooser.update({ upstreams: [{ id: 'socks', url: `socks5://supplier:${encodeURIComponent('p@ss:word')}@${HOST}:${supplier.gw.socksPort}`, country: 'DE' }] });
      const tun = await connectTunnel(g.gw.httpPort, target(), basic('router01-country-de', 'pw'));
      expect(tun.status).toBe(200);
      expect(await exchange(tun.socket, 1000, 5000)).toBe(5000);
      const s = await socksConnect(g.gw.socksPort, 'router01-country-de', 'pw', HOST, origin.port);
      expect(s.rep).toBe(0);
      expect(await exchange(s.socket, 1000, 5000)).toBe(5000);
      const plain = await plainGet(g.gw.httpPort, `http://${HOST}:${web.port}/bytes/5000`, basic('router01-country-de', 'pw'));
      expect([plain.status, plain.body.length]).toEqual([200, 5000]);
      await supplier.gw.flush();
      expect(supplier.sink.total(supplierAccount.id).down).toBeGreaterThan(10_000);

      chooser.update({ upstreams: [{ id: 'socks', url: `socks5://supplier:wrong@${HOST}:${supplier.gw.socksPort}`, country: 'DE' }] });
      const refused = await connectTunnel(g.gw.httpPort, target(), basic('router01-country-de', 'pw'));
      expect([refused.status, refused.headers['x-gateway-reason']]).toEqual([502, 'UPSTREAM_AUTH']);
      const plainRefused = await plainGet(g.gw.httpPort, `http://${HOST}:${web.port}/bytes/1`, basic('router01-country-de', 'pw'));
      expect([plainRefused.status, plainRefused.reason]).toEqual([502, 'UPSTREAM_AUTH']);
    } finally {
      await supplier.gw.stop();
    }
  });
});

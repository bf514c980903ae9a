import http from 'node:http';
import type net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FakeAuthority, HOST, type Upstream, basic, connectTunnel, socksConnect, startGateway, startUpstream } from '../../test/gateway-fixtures';
import { SOCKS_REPLY, STATUSES } from './statuses';
import { UpstreamExitChooser } from './upstream-exit-chooser';

/*
 * Direct egress must not reach the gateway host's own or internal services: a target that is, or
 * resolves to, a non-public address is refused with DESTINATION_FORBIDDEN over CONNECT, plain HTTP and
 * SOCKS5, unless GATEWAY_ALLOW_PRIVATE_DESTINATIONS is on (as in the other gateway tests).
 */

/** ::ffff:127.0.0.1 as SOCKS5 DST.ADDR bytes (ATYP 4). */
const MAPPED_LOOPBACK = Buffer.from([0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff, 127, 0, 0, 1]);

type Gw = Awaited<ReturnType<typeof startGateway>>;

describe('destinations of direct egress', () => {
  const authority = new FakeAuthority();
  const acct = authority.add('dest0001');
  authority.add('dest0002');
  const auth = basic('dest0001', 'pw');
  let origin: http.Server;
  let port: number;
  /** Connections the origin accepted: a refused dial must not add one. */
  let reached = 0;
  let guarded: Gw;
  let open: Gw;
  let chained: Gw;
  let upstream: Upstream;

  beforeAll(async () => {
    origin = http.createServer((_req, res) => res.end('origin'));
    origin.on('connection', () => reached++);
    await new Promise<void>((r) => origin.listen(0, HOST, r));
    port = (origin.address() as net.AddressInfo).port;
    upstream = await startUpstream();
    guarded = await startGateway({ chooser: new UpstreamExitChooser({ direct: true }), allowPrivateDestinations: false, flushMs: 60_000 }, authority);
    open = await startGateway({ chooser: new UpstreamExitChooser({ direct: true }), allowPrivateDestinations: true }, authority);
    chained = await startGateway({ chooser: new UpstreamExitChooser({ upstreams: [{ id: 'up', url: upstream.url, country: null }] }), allowPrivateDestinations: false }, authority);
  });
  afterAll(async () => {
    await Promise.all([guarded.gw.stop(), open.gw.stop(), chained.gw.stop(), upstream.close()]);
    origin.closeAllConnections();
    await new Promise((r) => origin.close(r));
  });

  /** Sends a GET through an open tunnel and returns the origin's body. */
  function getThrough(socket: net.Socket): Promise<string> {
    return new Promise((resolve, reject) => {
      let text = '';
      socket.on('data', (c: Buffer) => (text += c.toString('latin1')));
      socket.once('end', () => resolve(text.slice(text.indexOf('\r\n\r\n') + 4)));
      socket.once('error', reject);
      socket.resume();
      socket.write('GET / HTTP/1.1\r\nHost: origin\r\nConnection: close\r\n\r\n');
    });
  }

  function plainGet(proxyPort: number, url: string, user = 'dest0001'): Promise<{ status: number; reason: string | undefined; body: string }> {
    return new Promise((resolve, reject) => {
      http
        .get({ host: HOST, port: proxyPort, path: url, agent: false, headers: { 'proxy-authorization': basic(user, 'pw') } }, (res) => {
          let body = '';
          res.on('data', (c: Buffer) => (body += c.toString()));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, reason: res.headers['x-gateway-reason'] as string | undefined, body }));
        })
        .on('error', reject);
    });
  }

  const localTargets = () => [`${HOST}:${port}`, `localhost:${port}`, `[::ffff:127.0.0.1]:${port}`];
  const localUrls = () => [`http://${HOST}:${port}/`, `http://localhost:${port}/`, `http://[::ffff:127.0.0.1]:${port}/`];
  const socksTargets = (): [string | Buffer, number][] => [
    [HOST, port],
    ['localhost', port],
    [MAPPED_LOOPBACK, port],
    ['::ffff:127.0.0.1', port],
  ];

  it('refuses CONNECT to loopback, a name for it, its IPv4-mapped form and the metadata address, with the reason', async () => {
    const before = reached;
    for (const target of [...localTargets(), '169.254.169.254:80', '[::1]:6379', '0x7f.1:6379', '10.0.0.1:5432']) {
      const t = await connectTunnel(guarded.gw.httpPort, target, auth);
      t.socket.destroy();
      expect([t.status, t.headers['x-gateway-reason'], t.body], target).toEqual([403, 'DESTINATION_FORBIDDEN', `DESTINATION_FORBIDDEN: ${STATUSES.DESTINATION_FORBIDDEN.message}`]);
    }
    expect(reached).toBe(before);
  });

  it('refuses plain HTTP to the same destinations', async () => {
    const before = reached;
    for (const url of [...localUrls(), 'http://169.254.169.254/latest/meta-data/', 'http://0x7f.1:6379/', 'http://[::1]:8080/api/site']) {
      const r = await plainGet(guarded.gw.httpPort, url);
      expect([r.status, r.reason], url).toEqual([403, 'DESTINATION_FORBIDDEN']);
    }
    expect(reached).toBe(before);
  });

  it('refuses SOCKS5 to the same destinations with 0x02 (not allowed by ruleset)', async () => {
    const before = reached;
    for (const [host, p] of [...socksTargets(), ['169.254.169.254', 80] as [string, number]]) {
      const s = await socksConnect(guarded.gw.socksPort, 'dest0001', 'pw', host, p);
      s.socket.destroy();
      expect(s.rep, String(host)).toBe(SOCKS_REPLY.NOT_ALLOWED);
    }
    expect(reached).toBe(before);
  });

  it('bills nothing for refused CONNECT, SOCKS5 and plain requests to IP literals; a plain request to a name only itself', async () => {
    expect(await guarded.gw.flush()).toBe(true);
    const before = guarded.sink.total(acct.id);
    await connectTunnel(guarded.gw.httpPort, `${HOST}:${port}`, auth).then((t) => t.socket.destroy());
    await connectTunnel(guarded.gw.httpPort, `localhost:${port}`, auth).then((t) => t.socket.destroy());
    await socksConnect(guarded.gw.socksPort, 'dest0001', 'pw', 'localhost', port).then((s) => s.socket.destroy());
    await plainGet(guarded.gw.httpPort, `http://${HOST}:${port}/`);
    expect(await guarded.gw.flush()).toBe(true);
    expect(guarded.sink.total(acct.id)).toEqual(before);

    // A name is refused once resolved, after the request was admitted: its request and the 403 are billed.
    const other = authority.accounts.get('dest0002')!;
    const r = await plainGet(guarded.gw.httpPort, `http://localhost:${port}/`, 'dest0002');
    expect([r.status, r.reason]).toEqual([403, 'DESTINATION_FORBIDDEN']);
    expect(await guarded.gw.flush()).toBe(true);
    const billed = guarded.sink.total(other.id);
    expect(billed.up).toBeGreaterThan(0);
    expect(billed.up + billed.down).toBeLessThan(1024);
  });

  it('refuses the gateway own ports, whatever the address, even with private destinations allowed', async () => {
    for (const g of [open, guarded]) {
      for (const target of [`${HOST}:${g.gw.httpPort}`, `${HOST}:${g.gw.socksPort}`, `93.184.215.14:${g.gw.httpPort}`]) {
        const t = await connectTunnel(g.gw.httpPort, target, auth);
        t.socket.destroy();
        expect([t.status, t.headers['x-gateway-reason']], target).toEqual([403, 'DESTINATION_FORBIDDEN']);
      }
      const s = await socksConnect(g.gw.socksPort, 'dest0001', 'pw', HOST, g.gw.httpPort);
      s.socket.destroy();
      expect(s.rep).toBe(SOCKS_REPLY.NOT_ALLOWED);
      const r = await plainGet(g.gw.httpPort, `http://${HOST}:${g.gw.socksPort}/`);
      expect([r.status, r.reason]).toEqual([403, 'DESTINATION_FORBIDDEN']);
    }
  });

  it('reaches the origin over all three when private destinations are allowed', async () => {
    for (const target of localTargets()) {
      const t = await connectTunnel(open.gw.httpPort, target, auth);
      expect(t.status, target).toBe(200);
      expect(await getThrough(t.socket)).toBe('origin');
    }
    for (const url of localUrls()) expect(await plainGet(open.gw.httpPort, url), url).toEqual({ status: 200, reason: undefined, body: 'origin' });
    for (const [host, p] of socksTargets()) {
      const s = await socksConnect(open.gw.socksPort, 'dest0001', 'pw', host, p);
      expect(s.rep, String(host)).toBe(SOCKS_REPLY.SUCCEEDED);
      expect(await getThrough(s.socket)).toBe('origin');
    }
  });

  it('leaves destinations through an upstream proxy to the upstream', async () => {
    const t = await connectTunnel(chained.gw.httpPort, `${HOST}:${port}`, auth);
    expect(t.status).toBe(200);
    expect(await getThrough(t.socket)).toBe('origin');
    expect(await plainGet(chained.gw.httpPort, `http://localhost:${port}/`)).toEqual({ status: 200, reason: undefined, body: 'origin' });
  });
});

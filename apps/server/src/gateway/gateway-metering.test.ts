import http from 'node:http';
import net from 'node:net';
import tls from 'node:tls';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  FakeAuthority,
  FakeSink,
  HOST,
  basic,
  connectTunnel,
  exchange,
  readResponse,
  selfSignedCert,
  socksConnect,
  startByteOrigin,
  startGateway,
  startHttpOrigin,
  waitFor,
  writeBytes,
} from '../../test/gateway-fixtures';
import { UpstreamExitChooser } from './upstream-exit-chooser';

const MB = 1024 * 1024;

/** Metered bytes are the client's own socket counters, and within 1 % above the payload. */
function expectMetered(metered: { up: number; down: number }, client: net.Socket, payload: { up: number; down: number }) {
  expect(metered).toEqual({ up: client.bytesWritten, down: client.bytesRead });
  expect(metered.up).toBeGreaterThanOrEqual(payload.up);
  expect(metered.up).toBeLessThanOrEqual(payload.up * 1.01);
  expect(metered.down).toBeGreaterThanOrEqual(payload.down);
  expect(metered.down).toBeLessThanOrEqual(payload.down * 1.01);
}

/** The client saw its socket close; wait until the gateway has seen it too (and recorded its last bytes). */
async function settled(g: Awaited<ReturnType<typeof startGateway>>, socket: net.Socket) {
  if (!socket.destroyed) await new Promise((r) => socket.once('close', r));
  await waitFor(() => g.gw.liveConnections() === 0, 5000, 'the gateway to see the close');
  await g.gw.flush();
}

describe('gateway metering over real sockets', () => {
  let origin: Awaited<ReturnType<typeof startByteOrigin>>;
  let web: Awaited<ReturnType<typeof startHttpOrigin>>;
  let secureWeb: Awaited<ReturnType<typeof startHttpOrigin>>;
  let g: Awaited<ReturnType<typeof startGateway>>;
  const authority = new FakeAuthority();

  beforeAll(async () => {
    origin = await startByteOrigin();
    web = await startHttpOrigin();
    secureWeb = await startHttpOrigin(await selfSignedCert());
    // Long flush interval: the tests flush on demand, except the one about periodic flushes.
    g = await startGateway({ chooser: new UpstreamExitChooser({ direct: true }), flushMs: 60_000 }, authority);
  });
  afterAll(async () => {
    await g.gw.stop();
    await Promise.all([origin.close(), web.close(), secureWeb.close()]);
  });

  it('meters a CONNECT tunnel both ways to the byte', async () => {
    const a = authority.add('connect01');
    const t = await connectTunnel(g.gw.httpPort, `${HOST}:${origin.port}`, basic('connect01', 'pw'));
    expect(t.status).toBe(200);
    const got = await exchange(t.socket, 3 * MB, 5 * MB);
    expect(got).toBe(5 * MB);
    await settled(g, t.socket);
    expectMetered(g.sink.total(a.id), t.socket, { up: 3 * MB, down: 5 * MB });
  });

  it('meters TLS through a CONNECT tunnel, handshake and records included', async () => {
    const a = authority.add('tls00001');
    const t = await connectTunnel(g.gw.httpPort, `localhost:${secureWeb.port}`, basic('tls00001', 'pw'));
    expect(t.status).toBe(200);
    const secure = tls.connect({ socket: t.socket, servername: 'localhost', rejectUnauthorized: false });
    await new Promise((r) => secure.once('secureConnect', r));
    secure.write(`GET /bytes/${4 * MB} HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n`);
    let body = 0;
    secure.on('data', (c: Buffer) => (body += c.length));
    await new Promise((r) => secure.once('end', r));
    secure.end();
    await settled(g, t.socket);
    expect(body).toBeGreaterThan(4 * MB);
    const m = g.sink.total(a.id);
    expect(m).toEqual({ up: t.socket.bytesWritten, down: t.socket.bytesRead });
    expect(m.down).toBeGreaterThan(4 * MB);
    expect(m.down).toBeLessThan(4 * MB * 1.01);
  });

  it('meters a SOCKS5 tunnel both ways to the byte, greeting included', async () => {
    const a = authority.add('socks001');
    const s = await socksConnect(g.gw.socksPort, 'socks001', 'pw', HOST, origin.port);
    expect([s.authStatus, s.rep]).toEqual([0, 0]);
    await exchange(s.socket, 4 * MB, 2 * MB);
    await settled(g, s.socket);
    expectMetered(g.sink.total(a.id), s.socket, { up: 4 * MB, down: 2 * MB });
  });

  it('meters plain HTTP requests, headers included', async () => {
    const a = authority.add('plain001');
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    let socket: net.Socket | null = null;
    const proxyAuth = basic('plain001', 'pw');
    await new Promise<void>((resolve, reject) => {
      const req = http.request({ host: HOST, port: g.gw.httpPort, method: 'POST', path: `http://${HOST}:${web.port}/upload`, agent, headers: { 'proxy-authorization': proxyAuth } }, (res) => {
        res.resume();
        res.on('end', resolve);
      });
      req.on('socket', (s) => (socket = s));
      req.on('error', reject);
      writeBytes(req, 2 * MB, () => req.end());
    });
    await new Promise<void>((resolve, reject) => {
      http
        .get({ host: HOST, port: g.gw.httpPort, path: `http://${HOST}:${web.port}/bytes/${3 * MB}`, agent, headers: { 'proxy-authorization': proxyAuth } }, (res) => {
          res.resume();
          res.on('end', resolve);
        })
        .on('error', reject);
    });
    const client = socket as unknown as net.Socket;
    agent.destroy();
    await settled(g, client);
    expectMetered(g.sink.total(a.id), client, { up: 2 * MB, down: 3 * MB });
  });

  it('flushes a live tunnel periodically, long before it closes', async () => {
    const periodic = await startGateway({ chooser: new UpstreamExitChooser({ direct: true }), flushMs: 200 });
    try {
      const a = periodic.authority.add('live0001');
      const t = await connectTunnel(periodic.gw.httpPort, `${HOST}:${web.port}`, basic('live0001', 'pw'));
      t.socket.write(`GET /stream/${2 * MB} HTTP/1.1\r\nHost: x\r\n\r\n`);
      t.socket.resume();
      await waitFor(() => periodic.sink.total(a.id).down > 512 * 1024, 5000, 'a flush of the live tunnel');
      expect(t.socket.destroyed).toBe(false);
      expect(periodic.sink.batches.length).toBeGreaterThan(1);
      t.socket.destroy();
    } finally {
      await periodic.gw.stop();
    }
  });

  it('flushes live connections on stop()', async () => {
    const sink = new FakeSink();
    const own = await startGateway({ chooser: new UpstreamExitChooser({ direct: true }), flushMs: 60_000, sink });
    const a = own.authority.add('stop0001');
    const t = await connectTunnel(own.gw.httpPort, `${HOST}:${web.port}`, basic('stop0001', 'pw'));
    t.socket.write(`GET /bytes/${MB} HTTP/1.1\r\nHost: x\r\n\r\n`);
    let got = 0;
    t.socket.on('data', (c: Buffer) => (got += c.length));
    t.socket.resume();
    await waitFor(() => got > MB, 5000, 'the download');
    expect(sink.batches).toHaveLength(0);
    await own.gw.stop();
    expect(sink.total(a.id).down).toBe(t.socket.bytesRead);
    expect(sink.total(a.id).up).toBe(t.socket.bytesWritten);
  });
});

describe('keep-alive attribution (proxy-chain #572)', () => {
  let web: Awaited<ReturnType<typeof startHttpOrigin>>;
  let g: Awaited<ReturnType<typeof startGateway>>;
  beforeAll(async () => {
    web = await startHttpOrigin();
    g = await startGateway({ chooser: new UpstreamExitChooser({ direct: true }), flushMs: 60_000 });
  });
  afterAll(async () => {
    await g.gw.stop();
    await web.close();
  });

  it('bills each request of a kept-alive socket to the account that sent it, to the byte', async () => {
    const a = g.authority.add('keepa001');
    const b = g.authority.add('keepb001');
    const socket = net.connect(g.gw.httpPort, HOST);
    await new Promise((r) => socket.once('connect', r));
    const expected = new Map([
      [a.id, { up: 0, down: 0 }],
      [b.id, { up: 0, down: 0 }],
    ]);
    const plan: [typeof a, number][] = [
      [a, 100_000],
      [b, 300_000],
      [b, 7],
      [a, 50_000],
      [b, 1],
      [a, 200_000],
    ];
    for (const [account, size] of plan) {
      const up0 = socket.bytesWritten;
      const down0 = socket.bytesRead;
      socket.write(`GET http://${HOST}:${web.port}/bytes/${size} HTTP/1.1\r\nHost: ${HOST}:${web.port}\r\nProxy-Authorization: ${basic(account.name, 'pw')}\r\n\r\n`);
      const res = await readResponse(socket);
      expect(res.status).toBe(200);
      expect(res.rest.length).toBe(0);
      socket.resume();
      const e = expected.get(account.id)!;
      e.up += socket.bytesWritten - up0;
      e.down += socket.bytesRead - down0;
    }
    socket.destroy();
    await settled(g, socket);
    expect(g.sink.total(a.id)).toEqual(expected.get(a.id));
    expect(g.sink.total(b.id)).toEqual(expected.get(b.id));
  });

  it('tunnels a CONNECT that follows plain requests, or arrives in pieces, and bills each account its part', async () => {
    const origin = await startByteOrigin();
    try {
      const a = g.authority.add('mixeda01');
      const b = g.authority.add('mixedb01');
      const socket = net.connect(g.gw.httpPort, HOST);
      await new Promise((r) => socket.once('connect', r));
      socket.write(`GET http://${HOST}:${web.port}/bytes/5000 HTTP/1.1\r\nHost: x\r\nProxy-Authorization: ${basic('mixeda01', 'pw')}\r\n\r\n`);
      expect((await readResponse(socket)).status).toBe(200);
      const aPart = { up: socket.bytesWritten, down: socket.bytesRead };
      // The CONNECT arrives in two pieces on the kept-alive socket: Node's parser handles it (onConnect).
      socket.write(`CONNECT ${HOST}:${origin.port} HTTP/1.1\r\nProxy-Author`);
      await new Promise((r) => setTimeout(r, 20));
      socket.write(`ization: ${basic('mixedb01', 'pw')}\r\n\r\n`);
      const answer = await readResponse(socket);
      expect(answer.status).toBe(200);
      expect(await exchange(socket, 70_000, 90_000)).toBe(90_000);
      await settled(g, socket);
      expect(g.sink.total(a.id)).toEqual(aPart);
      expect(g.sink.total(b.id)).toEqual({ up: socket.bytesWritten - aPart.up, down: socket.bytesRead - aPart.down });
    } finally {
      await origin.close();
    }
  });

  it('refuses a pipelined request that changes account, and bills it to nobody', async () => {
    const a = g.authority.add('pipea001');
    const b = g.authority.add('pipeb001');
    const socket = net.connect(g.gw.httpPort, HOST);
    const req = (name: string) => `GET http://${HOST}:${web.port}/bytes/200000 HTTP/1.1\r\nHost: x\r\nProxy-Authorization: ${basic(name, 'pw')}\r\n\r\n`;
    socket.write(req('pipea001') + req('pipeb001'));
    let text = '';
    socket.on('data', (c: Buffer) => (text += c.toString('latin1')));
    await settled(g, socket);
    expect(text).toContain('ACCOUNT_SWITCH');
    expect(g.sink.total(b.id)).toEqual({ up: 0, down: 0 });
    expect(g.sink.total(a.id).up).toBeGreaterThan(0);
  });
});

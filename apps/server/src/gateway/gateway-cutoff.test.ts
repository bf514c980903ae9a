import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  FakeAuthority,
  HOST,
  basic,
  closedWithin,
  connectTunnel,
  readResponse,
  socksConnect,
  startGateway,
  startHttpOrigin,
  waitFor,
} from '../../test/gateway-fixtures';
import { SOCKS_REPLY } from './statuses';
import { UpstreamExitChooser } from './upstream-exit-chooser';

const MB = 1024 * 1024;

/**
 * Starts a slow download (`rate` bytes/s) over `socket` and reports when the client's own byte count
 * (up + down, what the gateway bills) passed `balance`, and when the socket closed.
 */
function download(socket: net.Socket, rate: number, balance: number) {
  const times = { crossed: 0, closed: 0 };
  socket.write(`GET /stream/${rate} HTTP/1.1\r\nHost: origin\r\n\r\n`);
  socket.on('data', () => {
    if (!times.crossed && socket.bytesRead + socket.bytesWritten >= balance) times.crossed = Date.now();
  });
  const closed = new Promise<typeof times>((resolve) =>
    socket.once('close', () => {
      times.closed = Date.now();
      resolve(times);
    }),
  );
  socket.resume();
  return closed;
}

describe('cut-off of live connections', () => {
  let web: Awaited<ReturnType<typeof startHttpOrigin>>;
  const chooser = new UpstreamExitChooser({ direct: true });
  beforeAll(async () => {
    web = await startHttpOrigin();
  });
  afterAll(() => web.close());

  it('closes a download within 10 s of the balance running out, with the default 5 s flush and enforcement', async () => {
    const g = await startGateway({ chooser, flushMs: 5000, enforceMs: 5000 });
    try {
      const balance = 1.5 * MB;
      const a = g.authority.add('smallbal', { balance });
      const t = await connectTunnel(g.gw.httpPort, `${HOST}:${web.port}`, basic('smallbal', 'pw'));
      expect(t.status).toBe(200);
      const times = await download(t.socket, MB, balance);
      expect(times.crossed).toBeGreaterThan(0);
      expect(times.closed - times.crossed).toBeLessThanOrEqual(10_000);
      // The byte budget cut it before the next flush; once flushed, the store sees it run out too, and
      // a new connection is refused with the reason.
      await waitFor(() => g.gw.liveConnections() === 0, 5000, 'the cut to reach the gateway');
      await g.gw.flush();
      expect(g.authority.standing(a.id)).toBe('NO_TRAFFIC');
      const again = await connectTunnel(g.gw.httpPort, `${HOST}:${web.port}`, basic('smallbal', 'pw'));
      expect([again.status, again.headers['x-gateway-reason']]).toEqual([402, 'NO_TRAFFIC']);
    } finally {
      await g.gw.stop();
    }
  }, 30_000);

  it('closes a SOCKS5 download when the balance runs out, and refuses the next one', async () => {
    const g = await startGateway({ chooser, flushMs: 100, enforceMs: 100 });
    try {
      const balance = 512 * 1024;
      g.authority.add('socksbal', { balance });
      const s = await socksConnect(g.gw.socksPort, 'socksbal', 'pw', HOST, web.port);
      expect(s.rep).toBe(0);
      const times = await download(s.socket, 4 * MB, balance);
      expect(times.closed - times.crossed).toBeLessThan(1000);
      const again = await socksConnect(g.gw.socksPort, 'socksbal', 'pw', HOST, web.port);
      expect([again.authStatus, again.rep]).toEqual([0, SOCKS_REPLY.NOT_ALLOWED]);
    } finally {
      await g.gw.stop();
    }
  });

  it('closes connections of an account whose own limit is reached', async () => {
    const g = await startGateway({ chooser, flushMs: 100, enforceMs: 100 });
    try {
      g.authority.add('capacct1', { cap: 256 * 1024 });
      const t = await connectTunnel(g.gw.httpPort, `${HOST}:${web.port}`, basic('capacct1', 'pw'));
      const times = await download(t.socket, 4 * MB, 256 * 1024);
      expect(times.closed - times.crossed).toBeLessThan(1000);
      const again = await connectTunnel(g.gw.httpPort, `${HOST}:${web.port}`, basic('capacct1', 'pw'));
      expect([again.status, again.headers['x-gateway-reason']]).toEqual([403, 'ACCOUNT_CAP']);
    } finally {
      await g.gw.stop();
    }
  });

  it("closes a disabled account's open tunnels and kept-alive sockets, and only that account's", async () => {
    const authority = new FakeAuthority();
    const g = await startGateway({ chooser, flushMs: 60_000, enforceMs: 100 }, authority);
    try {
      const a = authority.add('disable1');
      authority.add('bystand1');
      const tunnel = await connectTunnel(g.gw.httpPort, `${HOST}:${web.port}`, basic('disable1', 'pw'));
      const socks = await socksConnect(g.gw.socksPort, 'disable1', 'pw', HOST, web.port);
      const keptAlive = net.connect(g.gw.httpPort, HOST);
      keptAlive.write(`GET http://${HOST}:${web.port}/bytes/10 HTTP/1.1\r\nHost: x\r\nProxy-Authorization: ${basic('disable1', 'pw')}\r\n\r\n`);
      expect((await readResponse(keptAlive)).status).toBe(200);
      const other = await connectTunnel(g.gw.httpPort, `${HOST}:${web.port}`, basic('bystand1', 'pw'));
      expect(g.gw.liveConnections()).toBe(4);

      a.disabled = true;
      const closings = [tunnel.socket, socks.socket, keptAlive].map(closedWithin);
      for (const ms of await Promise.all(closings)) expect(ms).toBeLessThan(1000);
      expect(other.socket.destroyed).toBe(false);
      await waitFor(() => g.gw.liveConnections() === 1, 1000, 'the cut sockets to close on the gateway');

      const again = await connectTunnel(g.gw.httpPort, `${HOST}:${web.port}`, basic('disable1', 'pw'));
      expect([again.status, again.headers['x-gateway-reason']]).toEqual([403, 'ACCOUNT_DISABLED']);
      other.socket.destroy();
    } finally {
      await g.gw.stop();
    }
  });

  it('cuts an account at once on closeAccount()', async () => {
    const g = await startGateway({ chooser, flushMs: 60_000, enforceMs: 60_000 });
    try {
      const a = g.authority.add('closenow');
      const t1 = await connectTunnel(g.gw.httpPort, `${HOST}:${web.port}`, basic('closenow', 'pw'));
      const t2 = await socksConnect(g.gw.socksPort, 'closenow', 'pw', HOST, web.port);
      expect(g.gw.closeAccount(a.id)).toBe(2);
      for (const ms of await Promise.all([closedWithin(t1.socket), closedWithin(t2.socket)])) expect(ms).toBeLessThan(200);
      expect(g.gw.closeAccount(a.id)).toBe(0);
    } finally {
      await g.gw.stop();
    }
  });
});

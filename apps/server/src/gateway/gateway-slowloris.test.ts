import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recordFigure } from '../../test/security-figures';
import { HOST, basic, closedWithin, connectTunnel, exchange, readResponse, socksConnect, startByteOrigin, startGateway, startHttpOrigin, waitFor } from '../../test/gateway-fixtures';
import { type TestApp, createTestApp } from '../../test/test-app';
import { UpstreamExitChooser } from './upstream-exit-chooser';

/*
 * What one anonymous client may hold on the gateway (docs/gateway.md#connection-limits-and-failed-logins):
 * request heads and SOCKS5 handshakes that never complete are closed at GATEWAY_HANDSHAKE_MS, however
 * they trickle in, and the API and authenticated tunnels keep answering while they are held.
 */

const THREAT = 'One anonymous client holds the gateway with partial request heads (slowloris)';
const TEST = 'apps/server/src/gateway/gateway-slowloris.test.ts';

/** Opens a socket from `localAddress` (any 127.x.y.z is loopback on Linux) and sends `first`. */
function partial(port: number, first: string | Buffer, localAddress = HOST): Promise<net.Socket> {
  return new Promise((resolve, reject) => {
    const s = net.connect({ port, host: HOST, localAddress });
    s.once('error', reject);
    s.once('connect', () => {
      s.removeListener('error', reject);
      s.on('error', () => undefined);
      s.write(first, () => resolve(s));
    });
  });
}

/** Sends `pieces` one every `everyMs` until the socket closes; resolves with how many went and when it closed. */
function trickle(s: net.Socket, pieces: (string | Buffer)[], everyMs: number): Promise<{ sent: number; closedAfterMs: number }> {
  const t0 = Date.now();
  let sent = 0;
  return new Promise((resolve) => {
    const timer = setInterval(() => {
      if (s.destroyed || sent >= pieces.length) return;
      s.write(pieces[sent++]!);
    }, everyMs);
    s.once('close', () => {
      clearInterval(timer);
      resolve({ sent, closedAfterMs: Date.now() - t0 });
    });
    s.resume();
  });
}

describe('gateway: partial heads and handshakes', () => {
  const HANDSHAKE_MS = 3000;
  let g: Awaited<ReturnType<typeof startGateway>>;
  let origin: Awaited<ReturnType<typeof startByteOrigin>>;
  let web: Awaited<ReturnType<typeof startHttpOrigin>>;
  let api: TestApp;
  let apiPort: number;

  beforeAll(async () => {
    origin = await startByteOrigin();
    web = await startHttpOrigin();
    g = await startGateway({ chooser: new UpstreamExitChooser({ direct: true }), handshakeTimeoutMs: HANDSHAKE_MS });
    g.authority.add('alice', { password: 'right' });
    // The API of the embedded default, in this same process as the gateway.
    api = await createTestApp('sqlite');
    await api.app.listen({ port: 0, host: HOST });
    apiPort = (api.app.server.address() as net.AddressInfo).port;
  });
  afterAll(async () => {
    await g.gw.stop();
    await api.close();
    await origin.close();
    await web.close();
  });

  const apiAnswers = async () => (await fetch(`http://${HOST}:${apiPort}/api/site`)).status === 200;
  const tunnelAnswers = async (port = g.gw.httpPort) => {
    const t = await connectTunnel(port, `${HOST}:${origin.port}`, basic('alice', 'right'));
    if (t.status !== 200) return false;
    const got = await exchange(t.socket, 100, 5000);
    t.socket.destroy();
    return got === 5000;
  };

  it('holds 2,000 partial CONNECT heads without starving the API or tunnels, and closes them all at the deadline', async () => {
    // The default GATEWAY_HANDSHAKE_MS (10 s): opening 2,000 sockets takes a few seconds on a loaded machine.
    const DEFAULT_MS = 10_000;
    // A budget whose unauthenticated share (half) holds them all, whatever this machine's descriptor limit.
    const big = await startGateway({ chooser: new UpstreamExitChooser({ direct: true }), maxConnections: 5000 }, g.authority);
    try {
    // The per-IP pending cap (64) would stop 2,000 from one address, and the per-network cap (256) from one
    // /24: they come from 40 loopback addresses in 40 /24s (127.0.2.1–127.0.41.1), 50 each, under both caps.
    // 4,000 descriptors in this process.
    const HELD = 2000;
    const port = big.gw.httpPort;
    const held: net.Socket[] = [];
    const t0 = Date.now();
    for (let batch = 0; batch < HELD / 200; batch++) {
      const opened = await Promise.all(
        Array.from({ length: 200 }, (_, i) => partial(port, 'CONNECT 127.0.0.1:6379 HTTP/1.1\r\n', `127.0.${2 + ((batch * 200 + i) % 40)}.1`)),
      );
      held.push(...opened);
    }
    const closes = held.map((s) => closedWithin(s));
    const openedMs = Date.now() - t0;
    expect(held.every((s) => !s.destroyed)).toBe(true);

    const apiOk = await apiAnswers();
    const tunnelOk = await tunnelAnswers(port);
    expect(apiOk).toBe(true);
    expect(tunnelOk).toBe(true);

    await Promise.all(closes);
    const allClosedMs = Date.now() - t0;
    // Each closes at most a sweep (250 ms) after its own deadline; the last one opened at `openedMs`.
    expect(allClosedMs).toBeGreaterThanOrEqual(DEFAULT_MS - 300);
    expect(allClosedMs).toBeLessThan(openedMs + DEFAULT_MS + 2000);
    expect(big.gw.protection.http.timedOut).toBe(HELD);
    recordFigure({
      id: 'gateway-slowloris',
      threat: THREAT,
      test: `${TEST} › holds 2,000 partial CONNECT heads…`,
      figure:
        `${HELD.toLocaleString('en')} partial CONNECT heads held from 40 loopback addresses (opened in ${(openedMs / 1000).toFixed(1)} s); ` +
        `while held the API answered: ${apiOk ? 'yes' : 'no'}, an authenticated CONNECT tunnel answered: ${tunnelOk ? 'yes' : 'no'}; ` +
        `all ${HELD.toLocaleString('en')} closed ${(allClosedMs / 1000).toFixed(1)} s after the first opened (${((allClosedMs - openedMs) / 1000).toFixed(1)} s after the last), with the default GATEWAY_HANDSHAKE_MS=${DEFAULT_MS} ms ` +
        `(before: never closed; 19,990 filled 20,000 descriptors in 26 s).`,
    });
    } finally {
      await big.gw.stop();
    }
  });

  it('closes an HTTP client that sends one header line a second, at the deadline', async () => {
    const s = await partial(g.gw.httpPort, 'GET http://127.0.0.1/ HTTP/1.1\r\n');
    const lines = Array.from({ length: 30 }, (_, i) => `X-Slow-${i}: ${i}\r\n`);
    const { sent, closedAfterMs } = await trickle(s, lines, 700);
    // Kept sending past the deadline, and was closed at it all the same.
    expect(sent).toBeGreaterThanOrEqual(3);
    expect(sent).toBeLessThan(lines.length);
    expect(closedAfterMs).toBeGreaterThanOrEqual(HANDSHAKE_MS - 300);
    expect(closedAfterMs).toBeLessThan(HANDSHAKE_MS + 1500);
  });

  it('closes a kept-alive HTTP connection whose next head trickles in', async () => {
    g.authority.add('bob', { password: 'right' });
    const s = await partial(g.gw.httpPort, `GET http://${HOST}:${web.port}/bytes/10 HTTP/1.1\r\nHost: ${HOST}\r\nProxy-Authorization: ${basic('bob', 'right')}\r\n\r\n`);
    const first = await readResponse(s);
    expect(first.status).toBe(200);
    const lines = ['GET http://127.0.0.1/ HTTP/1.1\r\n', ...Array.from({ length: 30 }, (_, i) => `X-Slow-${i}: ${i}\r\n`)];
    const { sent, closedAfterMs } = await trickle(s, lines, 700);
    expect(sent).toBeGreaterThanOrEqual(3);
    expect(closedAfterMs).toBeLessThan(HANDSHAKE_MS + 1500);
  });

  it('closes a SOCKS5 client that sends its handshake a byte a second, at the deadline', async () => {
    const s = await partial(g.gw.socksPort, Buffer.from([5]));
    // Greeting, then an auth message with long fields: many more bytes than the deadline lets through.
    const bytes = [1, 2, 1, 40, ...Buffer.from('a'.repeat(40)), 40, ...Buffer.from('b'.repeat(40))].map((b) => Buffer.from([b]));
    const { sent, closedAfterMs } = await trickle(s, bytes, 700);
    expect(sent).toBeGreaterThanOrEqual(3);
    expect(sent).toBeLessThan(bytes.length);
    expect(closedAfterMs).toBeGreaterThanOrEqual(HANDSHAKE_MS - 300);
    expect(closedAfterMs).toBeLessThan(HANDSHAKE_MS + 1500);
  });
});

describe('gateway: pending connections per IP and the connection budget', () => {
  it('refuses the connection past GATEWAY_MAX_PENDING_PER_IP from one address, not from another, and counts it', async () => {
    const MAX = 16;
    const g = await startGateway({ chooser: new UpstreamExitChooser({ direct: true }), maxPendingPerIp: MAX });
    const origin = await startByteOrigin();
    g.authority.add('carol', { password: 'right' });
    let overClosedMs = 0;
    try {
      for (const [port, first] of [
        [g.gw.httpPort, 'CONNECT 127.0.0.1:6379 HTTP/1.1\r\n'],
        [g.gw.socksPort, Buffer.from([5])],
      ] as const) {
        const held = await Promise.all(Array.from({ length: MAX }, () => partial(port, first, '127.0.0.50')));
        const over = await partial(port, first, '127.0.0.50').catch(() => null);
        overClosedMs = Math.max(overClosedMs, over ? await closedWithin(over) : 0);
        expect(overClosedMs).toBeLessThan(1000);
        // Another address is not affected…
        const other = await partial(port, first, '127.0.0.51');
        expect(other.destroyed).toBe(false);
        other.destroy();
        for (const s of held) s.destroy();
        await waitFor(() => g.gw.protection.http.pendingFrom('127.0.0.50') + g.gw.protection.socks.pendingFrom('127.0.0.50') === 0, 5000, 'pending to drain');
      }
      expect(g.gw.protection.http.refused.pendingPerIp).toBe(1);
      expect(g.gw.protection.socks.refused.pendingPerIp).toBe(1);

      // …and an authenticated tunnel is no longer pending: it leaves room for another.
      const tunnels = await Promise.all(
        Array.from({ length: MAX }, async () => {
          const t = await connectTunnel(g.gw.httpPort, `${HOST}:${origin.port}`, basic('carol', 'right'));
          expect(t.status).toBe(200);
          return t.socket;
        }),
      );
      const more = await partial(g.gw.httpPort, 'CONNECT 127.0.0.1:6379 HTTP/1.1\r\n');
      await waitFor(() => g.gw.protection.http.pendingFrom('127.0.0.1') === 1, 5000, 'the new connection to be held');
      expect(more.destroyed).toBe(false);
      more.destroy();
      for (const s of tunnels) s.destroy();
      recordFigure({
        id: 'gateway-pending-per-ip',
        threat: 'One address opens unauthenticated connections until the gateway runs out of descriptors',
        test: 'apps/server/src/gateway/gateway-slowloris.test.ts › refuses the connection past GATEWAY_MAX_PENDING_PER_IP…',
        figure:
          `With GATEWAY_MAX_PENDING_PER_IP=${MAX}: ${MAX} partial heads (HTTP) and ${MAX} partial handshakes (SOCKS5) held from one address, ` +
          `connection ${MAX + 1} closed at once (${overClosedMs} ms) on each port and counted (1 refusal per port), another address still accepted, ` +
          `and ${MAX} authenticated tunnels from the same address left room for more pending ones (default cap 64).`,
      });
    } finally {
      await g.gw.stop();
      await origin.close();
    }
  });

  it('refuses new connections at once when a listener holds GATEWAY_MAX_CONNECTIONS authenticated ones', async () => {
    const g = await startGateway({ chooser: new UpstreamExitChooser({ direct: true }), maxConnections: 10, maxPendingPerIp: 100 });
    const origin = await startByteOrigin();
    g.authority.add('dave', { password: 'right' });
    try {
      const http = await Promise.all(Array.from({ length: 10 }, () => connectTunnel(g.gw.httpPort, `${HOST}:${origin.port}`, basic('dave', 'right'))));
      const socks = await Promise.all(Array.from({ length: 10 }, () => socksConnect(g.gw.socksPort, 'dave', 'right', HOST, origin.port)));
      expect(http.map((t) => t.status)).toEqual(Array(10).fill(200));
      expect(socks.map((t) => t.rep)).toEqual(Array(10).fill(0));
      for (const [port, first, limits] of [
        [g.gw.httpPort, 'CONNECT 127.0.0.1:6379 HTTP/1.1\r\n', g.gw.protection.http],
        [g.gw.socksPort, Buffer.from([5]), g.gw.protection.socks],
      ] as const) {
        const over = await partial(port, first).catch(() => null);
        expect(over ? await closedWithin(over) : 0).toBeLessThan(1000);
        expect(limits.refused.budget).toBe(1);
      }
      for (const t of [...http, ...socks]) t.socket.destroy();
    } finally {
      await g.gw.stop();
      await origin.close();
    }
  });
});

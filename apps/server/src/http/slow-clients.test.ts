import http from 'node:http';
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recordFigure } from '../../test/security-figures';
import { DIALECTS, type TestApp, createTestApp } from '../../test/test-app';
import { trustedPeers } from './connection-cap';

/*
 * What one client may hold on the API (docs/api.md#rate-and-connection-limits, as on the gateway): a request head within
 * API_HEADERS_TIMEOUT_MS, the whole request within API_REQUEST_TIMEOUT_MS, and at most
 * API_MAX_CONNECTIONS_PER_IP open connections per socket peer. Over real sockets: app.inject opens none.
 */

const HEADERS_MS = 1000;
const REQUEST_MS = 2500;
const MAX_PER_IP = 8;

function connect(port: number, localAddress = '127.0.0.1'): Promise<net.Socket> {
  return new Promise((resolve, reject) => {
    const s = net.connect({ port, host: '127.0.0.1', localAddress });
    s.once('error', reject);
    s.once('connect', () => {
      s.removeListener('error', reject);
      s.on('error', () => undefined);
      resolve(s);
    });
  });
}

/** Writes one piece every `everyMs` until the socket closes; resolves with how long that took and what came back. */
function trickle(s: net.Socket, pieces: string[], everyMs: number): Promise<{ sent: number; closedAfterMs: number; answer: string }> {
  const t0 = Date.now();
  let sent = 0;
  let answer = '';
  return new Promise((resolve) => {
    s.write(pieces[sent++]!);
    const timer = setInterval(() => {
      if (!s.destroyed && sent < pieces.length) s.write(pieces[sent++]!);
    }, everyMs);
    s.on('data', (c: Buffer) => (answer += c.toString('latin1')));
    s.once('close', () => {
      clearInterval(timer);
      resolve({ sent, closedAfterMs: Date.now() - t0, answer });
    });
  });
}

function getSite(port: number, localAddress: string): Promise<number> {
  return new Promise((resolve, reject) => {
    http.get({ host: '127.0.0.1', port, path: '/api/site', localAddress, agent: false }, (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    }).on('error', reject);
  });
}

describe.each(DIALECTS)('API against slow and greedy clients on %s', (dialect) => {
  let t: TestApp;
  let port: number;
  beforeAll(async () => {
    t = await createTestApp(dialect, { API_HEADERS_TIMEOUT_MS: String(HEADERS_MS), API_REQUEST_TIMEOUT_MS: String(REQUEST_MS), API_MAX_CONNECTIONS_PER_IP: String(MAX_PER_IP) });
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    port = (t.app.server.address() as net.AddressInfo).port;
  });
  afterAll(() => t.close());

  it('closes a request head that trickles in, at API_HEADERS_TIMEOUT_MS, and a body that trickles in, at API_REQUEST_TIMEOUT_MS', async () => {
    const lines = ['GET /api/site HTTP/1.1\r\n', ...Array.from({ length: 40 }, (_, i) => `X-Slow-${i}: ${i}\r\n`)];
    const head = await trickle(await connect(port, '127.0.0.90'), lines, 300);
    expect(head.sent).toBeGreaterThanOrEqual(3);
    expect(head.sent).toBeLessThan(lines.length);
    // Checked every second: closed between the deadline and a second after it.
    expect(head.closedAfterMs).toBeGreaterThanOrEqual(HEADERS_MS - 100);
    expect(head.closedAfterMs).toBeLessThan(HEADERS_MS + 1800);
    expect(head.answer).toMatch(/^HTTP\/1\.1 408/);

    const body = ['POST /api/auth/login HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 200\r\n\r\n', ...Array.from({ length: 60 }, () => ' ')];
    const slowBody = await trickle(await connect(port, '127.0.0.91'), body, 200);
    expect(slowBody.closedAfterMs).toBeGreaterThanOrEqual(REQUEST_MS - 100);
    expect(slowBody.closedAfterMs).toBeLessThan(REQUEST_MS + 1800);

    recordFigure({
      id: 'api-slow-headers',
      threat: 'One anonymous client holds the API with slow request heads, slow bodies or many connections',
      test: 'apps/server/src/http/slow-clients.test.ts',
      figure:
        `A head sending one header line every 0.3 s was closed (408) after ${(head.closedAfterMs / 1000).toFixed(1)} s with API_HEADERS_TIMEOUT_MS=${HEADERS_MS} ms ` +
        `(before: Node's 60 s, checked every 30 s); a body trickling a byte every 0.2 s after ${(slowBody.closedAfterMs / 1000).toFixed(1)} s with API_REQUEST_TIMEOUT_MS=${REQUEST_MS} ms; ` +
        `with API_MAX_CONNECTIONS_PER_IP=${MAX_PER_IP}, connection ${MAX_PER_IP + 1} from one address was closed at once while another address was served (${dialect}).`,
    });
  });

  it('closes the connection past API_MAX_CONNECTIONS_PER_IP from one address at once, and serves other addresses', async () => {
    const held = await Promise.all(Array.from({ length: MAX_PER_IP }, () => connect(port, '127.0.0.92')));
    const before = t.app.connectionCap.refused;
    const over = await connect(port, '127.0.0.92');
    const t0 = Date.now();
    await new Promise((r) => (over.destroyed ? r(null) : over.once('close', r)));
    expect(Date.now() - t0).toBeLessThan(HEADERS_MS);
    expect(t.app.connectionCap.refused).toBe(before + 1);
    expect(await getSite(port, '127.0.0.93')).toBe(200);
    // The ones held still work.
    const answer = await trickle(held[0]!, ['GET /api/site HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n'], 1000);
    expect(answer.answer).toMatch(/^HTTP\/1\.1 200/);
    for (const s of held) s.destroy();
  });
});

describe('API connection cap and TRUST_PROXY', () => {
  it('exempts the proxies TRUST_PROXY names (they carry many clients), and everyone under a hop count', () => {
    const list = trustedPeers(['10.0.0.0/8', '192.0.2.7', 'loopback']);
    expect(['10.1.2.3', '192.0.2.7', '127.0.0.1', '::1', '::ffff:10.0.0.9'].map(list)).toEqual([true, true, true, true, true]);
    expect(['192.0.2.8', '203.0.113.1', '::ffff:203.0.113.1'].map(list)).toEqual([false, false, false]);
    expect(trustedPeers(false)('10.0.0.1')).toBe(false);
    expect(trustedPeers(1)('203.0.113.1')).toBe(true);
  });
});

import http from 'node:http';
import net from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { GatewayRequest, GatewayResponse, PlainSocket } from './plain-exchange';
import { ProviderHealth } from './provider-health';

/** A server with the gateway's request/response classes whose handler is given by each test. */
async function serve(onRequest: (req: GatewayRequest, res: GatewayResponse, plain: PlainSocket) => void): Promise<{ port: number; close: () => Promise<void> }> {
  const plains = new Map<net.Socket, PlainSocket>();
  const server = http.createServer({ IncomingMessage: GatewayRequest, ServerResponse: GatewayResponse });
  server.on('request', (req: GatewayRequest, res: GatewayResponse) => {
    let plain = plains.get(req.socket);
    if (!plain) plains.set(req.socket, (plain = new PlainSocket(req.socket)));
    onRequest(req, res, plain);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as net.AddressInfo).port,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Sends `raw` on one connection and collects what comes back until `done(text)` says enough. */
function exchange(port: number, raw: string, done: (text: string) => boolean): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1');
    let text = '';
    socket.on('data', (chunk) => {
      text += chunk.toString('latin1');
      if (done(text)) {
        socket.destroy();
        resolve(text);
      }
    });
    socket.on('error', reject);
    socket.write(raw);
  });
}

// Bodies carry no line break, so the next status line may follow one directly.
const statusLines = (text: string) => text.match(/HTTP\/1\.1 \d{3} [^\r]*/g) ?? [];

let closeServer: (() => Promise<void>) | null = null;
afterEach(async () => {
  await closeServer?.();
  closeServer = null;
});

describe('plain request bookkeeping', () => {
  it('answers each pipelined request that gets no answer with its own 504 UPSTREAM_TIMEOUT, in order', async () => {
    // The request is read (as the forward pipes it upstream); no answer ever comes.
    const s = await serve((req, res, plain) => {
      res.track(plain, 300);
      req.resume();
    });
    closeServer = s.close;
    const started = Date.now();
    const text = await exchange(s.port, 'GET http://a.test/1 HTTP/1.1\r\nHost: a.test\r\n\r\nGET http://a.test/2 HTTP/1.1\r\nHost: a.test\r\n\r\n', (t) => statusLines(t).length === 2);
    expect(statusLines(text)).toEqual(['HTTP/1.1 504 Gateway Timeout', 'HTTP/1.1 504 Gateway Timeout']);
    expect(text.match(/UPSTREAM_TIMEOUT: /g)).toHaveLength(2);
    // The deadline (300 ms) is swept every 250 ms.
    expect(Date.now() - started).toBeGreaterThanOrEqual(300);
  });

  it("counts a request that timed out against its provider only while the exit's connection was still being made", async () => {
    const health = new ProviderHealth();
    const s = await serve((req, res, plain) => {
      res.track(plain, 300);
      res.countFor(health, { kind: 'upstream', id: 'upstream-1', url: 'http://provider.test:8000', providerId: 7 });
      // The forwarded request as the deadline finds it: its socket to the exit still connecting (/connecting), or
      // connected and waiting for the origin's answer through the provider (/waiting).
      res.upstream = { socket: { connecting: req.url!.endsWith('/connecting') }, destroyed: true } as unknown as http.ClientRequest;
      req.resume();
    });
    closeServer = s.close;
    const timedOut = (t: string) => t.includes('UPSTREAM_TIMEOUT: ');
    await Promise.all([
      exchange(s.port, 'GET http://a.test/connecting HTTP/1.1\r\nHost: a.test\r\n\r\n', timedOut),
      exchange(s.port, 'GET http://a.test/waiting HTTP/1.1\r\nHost: a.test\r\n\r\n', timedOut),
    ]);
    expect(health.windows().map((w) => [w.providerId, w.attempts, w.failures])).toEqual([[7, 1, 1]]);
  });

  it('leaves a response that was answered in time alone, and settles the socket at a clean boundary', async () => {
    let plain: PlainSocket | null = null;
    const s = await serve((_req, res, p) => {
      plain = p;
      res.track(p, 300);
      res.end('hello');
    });
    closeServer = s.close;
    const text = await exchange(s.port, 'GET http://a.test/ HTTP/1.1\r\nHost: a.test\r\n\r\n', (t) => t.endsWith('hello'));
    expect(statusLines(text)).toEqual(['HTTP/1.1 200 OK']);
    await new Promise((r) => setTimeout(r, 600));
    expect(plain).not.toBeNull();
    expect(plain!.inFlight).toBe(0);
    expect(plain!.boundary).toBe(Buffer.byteLength('GET http://a.test/ HTTP/1.1\r\nHost: a.test\r\n\r\n'));
  });

  it('gives a failed forward the reason of the dial failure the exit agent reported', async () => {
    const s = await serve((_req, res, plain) => {
      res.track(plain, 5_000);
      res.dialFailure = 'DESTINATION_FORBIDDEN';
      // What the forward does when its upstream request fails with an errno that says less.
      res.fail('UPSTREAM_ERROR');
    });
    closeServer = s.close;
    const text = await exchange(s.port, 'GET http://a.test/ HTTP/1.1\r\nHost: a.test\r\n\r\n', (t) => t.includes('DESTINATION_FORBIDDEN: '));
    expect(statusLines(text)).toEqual(['HTTP/1.1 403 Forbidden']);
    expect(text.toLowerCase()).toContain('x-gateway-reason: destination_forbidden');
  });
});

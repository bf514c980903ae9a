import http from 'node:http';
import type net from 'node:net';
import { failureOfErrno } from '../../../shared/dial-failures';

/**
 * A byte stream to `host:port` through one upstream proxy, for the active probe (docs/gateway.md#active-probes):
 * HTTP CONNECT (RFC 9110 §9.3.6) with Node's own client, SOCKS5 (RFC 1928/1929) with the `socks` client.
 *
 * Why not the gateway's `dialExit`: modules/ sit below gateway/ and may not import it (docs/architecture.md,
 * held by lint). The failure names are the gateway's (docs/gateway.md#refusals-and-failures), so an admin reads
 * the same reason from a probe as from the breaker. Moving `exit-dialer.ts` down to shared/ would let both use one.
 * Never a direct dial: a probe goes out through the provider or not at all.
 */
export type DialOutcome = { socket: net.Socket } | { failure: string };
export type ProbeDial = (upstreamUrl: string, host: string, port: number, timeoutMs: number) => Promise<DialOutcome>;

export const dialThroughUpstream: ProbeDial = async (upstreamUrl, host, port, timeoutMs) => {
  let url: URL;
  try {
    url = new URL(upstreamUrl);
  } catch {
    return { failure: 'UPSTREAM_ERROR' };
  }
  if (url.protocol === 'http:') return dialHttpProxy(url, host, port, timeoutMs);
  if (url.protocol.startsWith('socks')) return dialSocksProxy(url, host, port, timeoutMs);
  return { failure: 'UPSTREAM_ERROR' };
};

function unbracket(hostname: string): string {
  return hostname.startsWith('[') ? hostname.slice(1, -1) : hostname;
}

function authority(host: string, port: number): string {
  return host.includes(':') ? `[${host}]:${port}` : `${host}:${port}`;
}


/** A CONNECT answer's status as the gateway names it: 407 the supply credentials, 504 a timeout, else a refusal. */
function failureOfStatus(status: number): string {
  if (status === 407) return 'UPSTREAM_AUTH';
  if (status === 504) return 'UPSTREAM_TIMEOUT';
  return 'UPSTREAM_REJECTED';
}

function dialHttpProxy(url: URL, host: string, port: number, timeoutMs: number): Promise<DialOutcome> {
  const target = authority(host, port);
  const headers: Record<string, string> = { host: target };
  if (url.username || url.password) {
    headers['proxy-authorization'] = `Basic ${Buffer.from(`${decodeURIComponent(url.username)}:${decodeURIComponent(url.password)}`).toString('base64')}`;
  }
  return new Promise((resolve) => {
    let settled = false;
    const settle = (outcome: DialOutcome) => {
      if (settled) {
        if ('socket' in outcome) outcome.socket.destroy();
        return;
      }
      settled = true;
      clearTimeout(timer);
      resolve(outcome);
    };
    const req = http.request({ host: unbracket(url.hostname), port: Number(url.port) || 80, method: 'CONNECT', path: target, headers, agent: false });
    const timer = setTimeout(() => {
      settle({ failure: 'UPSTREAM_TIMEOUT' });
      req.destroy();
    }, timeoutMs);
    req.once('connect', (res: http.IncomingMessage, socket: net.Socket, head: Buffer) => {
      const status = res.statusCode ?? 0;
      if (status < 200 || status >= 300) {
        socket.destroy();
        return settle({ failure: failureOfStatus(status) });
      }
      socket.pause();
      if (head.length > 0) socket.unshift(head);
      settle({ socket });
    });
    // Node answers a CONNECT that the proxy refused without a tunnel as an ordinary response.
    req.once('response', (res: http.IncomingMessage) => {
      res.destroy();
      settle({ failure: failureOfStatus(res.statusCode ?? 0) });
    });
    req.on('error', (err: NodeJS.ErrnoException) => settle({ failure: failureOfErrno(err.code) }));
    req.end();
  });
}

/** The `socks` client reports failures as messages; RFC 1928 §6 reply names come after " - " (as gateway/exit-dialer.ts reads them). */
function failureOfSocksMessage(message: string): string {
  if (message.includes('Authentication failed')) return 'UPSTREAM_AUTH';
  if (message.includes('timed out')) return 'UPSTREAM_TIMEOUT';
  if (message.includes('rejected connection')) {
    if (message.includes('ConnectionRefused')) return 'UPSTREAM_REFUSED';
    if (message.includes('HostUnreachable') || message.includes('NetworkUnreachable')) return 'UPSTREAM_UNREACHABLE';
    if (message.includes('TTLExpired')) return 'UPSTREAM_TIMEOUT';
    return 'UPSTREAM_REJECTED';
  }
  return failureOfErrno(/\b(E[A-Z_]+)\b/.exec(message)?.[1]);
}

async function dialSocksProxy(url: URL, host: string, port: number, timeoutMs: number): Promise<DialOutcome> {
  const { SocksClient } = await import('socks');
  try {
    const { socket } = await SocksClient.createConnection({
      proxy: {
        host: unbracket(url.hostname),
        port: Number(url.port) || 1080,
        type: url.protocol === 'socks4:' || url.protocol === 'socks4a:' ? 4 : 5,
        userId: url.username ? decodeURIComponent(url.username) : undefined,
        password: url.password ? decodeURIComponent(url.password) : undefined,
      },
      command: 'connect',
      destination: { host, port },
      set_tcp_nodelay: true,
      timeout: timeoutMs,
    });
    socket.pause();
    return { socket };
  } catch (err) {
    return { failure: failureOfSocksMessage((err as Error).message) };
  }
}

import net from 'node:net';
import type { SocksClient } from 'socks';
import { Deadline } from './deadlines';
import { DESTINATION_FORBIDDEN_CODE, type DestinationGuard } from './destination-guard';
import type { Exit } from './ports';
import { type DialFailure, type UpstreamFailure, failureOfErrno } from './statuses';

/**
 * Called once: a connected socket to the target (through the exit), or why there is none. The socket
 * comes without an 'error' listener: the caller attaches one at once (or destroys it).
 */
export type DialDone = (failure: DialFailure | null, socket: net.Socket | null) => void;

/** Largest upstream CONNECT response head we read (RFC 9112 sets none; real proxies send a few hundred bytes). */
const MAX_RESPONSE_HEAD = 16 * 1024;
const HEAD_END = Buffer.from('\r\n\r\n');

/**
 * Opens a byte stream to `host:port` through an exit: directly, through an HTTP proxy with CONNECT
 * (RFC 9110 §9.3.6), or through a SOCKS proxy (RFC 1928, via the `socks` client). The socket is handed
 * over paused, with anything the upstream sent past its reply put back, ready to be piped. Returns a
 * function that abandons the dial (the client went away). A direct dial goes only where `guard` allows;
 * through an upstream the destination is the upstream's to resolve and judge.
 */
export function dialExit(exit: Exit, host: string, port: number, timeoutMs: number, guard: DestinationGuard, done: DialDone): () => void {
  if (exit.kind === 'direct') return dialDirect(host, port, timeoutMs, guard, done);
  let url: URL;
  try {
    url = new URL(exit.url);
  } catch {
    done('UPSTREAM_ERROR', null);
    return () => undefined;
  }
  const http = url.protocol === 'http:';
  if (!http && !url.protocol.startsWith('socks')) {
    done('UPSTREAM_ERROR', null);
    return () => undefined;
  }
  const dial = (proxyHost: string) => (http ? dialHttpProxy(url, proxyHost, host, port, timeoutMs, done) : dialSocksProxy(url, proxyHost, host, port, timeoutMs, done));
  const upstream = upstreamAddress(url);
  return exit.guarded ? dialGuarded(guard, upstream, dial, done) : dial(upstream.host);
}

/** An upstream URL's host (unbracketed) and port, with the scheme's usual port when it names none. */
export function upstreamAddress(url: URL): { host: string; port: number } {
  return { host: unbracket(url.hostname), port: Number(url.port) || (url.protocol === 'http:' ? 80 : 1080) };
}

/**
 * A guarded upstream (a static IP's, docs/security.md#static-ip-upstreams) is dialed only at an address
 * direct egress could reach: a literal is checked, a name resolved once by the guard, which checks every
 * answer, and the dial goes to the address checked, so a name re-pointed inward after its import is refused.
 */
function dialGuarded(guard: DestinationGuard, upstream: { host: string; port: number }, dial: (address: string) => () => void, done: DialDone): () => void {
  if (guard.refuses(upstream.host, upstream.port)) {
    done('DESTINATION_FORBIDDEN', null);
    return () => undefined;
  }
  if (net.isIP(upstream.host) !== 0) return dial(upstream.host);
  let abandoned = false;
  let cancel: (() => void) | null = null;
  guard.lookup(upstream.host, {}, (err, address) => {
    if (abandoned) return;
    if (err) return done(err.code === DESTINATION_FORBIDDEN_CODE ? 'DESTINATION_FORBIDDEN' : failureOfErrno(err.code), null);
    cancel = dial(address as string);
  });
  return () => {
    abandoned = true;
    cancel?.();
  };
}

function dialDirect(host: string, port: number, timeoutMs: number, guard: DestinationGuard, done: DialDone): () => void {
  // net.connect skips `lookup` for an IP literal: literals (and the own ports) are checked here.
  if (guard.refuses(host, port)) {
    done('DESTINATION_FORBIDDEN', null);
    return () => undefined;
  }
  // A name is resolved and checked once by the guard's lookup; the socket connects to what it checked.
  const socket = net.connect({ host, port, noDelay: true, lookup: guard.lookup });
  let settled = false;
  const finish = (failure: DialFailure | null) => {
    if (settled) return;
    settled = true;
    // Drop our listeners: a long-lived tunnel must not keep this dial's closures (and the request).
    socket.removeListener('connect', onConnect);
    socket.removeListener('error', onError);
    deadline.cancel();
    if (failure) {
      socket.on('error', ignore).destroy();
      done(failure, null);
    } else {
      socket.pause();
      done(null, socket);
    }
  };
  const onConnect = () => finish(null);
  const onError = (err: NodeJS.ErrnoException) => finish(err.code === DESTINATION_FORBIDDEN_CODE ? 'DESTINATION_FORBIDDEN' : failureOfErrno(err.code));
  const deadline = new Deadline(() => finish('UPSTREAM_TIMEOUT'));
  socket.once('connect', onConnect);
  socket.on('error', onError);
  deadline.arm(Date.now() + timeoutMs);
  return () => {
    if (settled) return;
    settled = true;
    deadline.cancel();
    socket.on('error', ignore).destroy();
  };
}

function ignore(): void {}

function authority(host: string, port: number): string {
  return host.includes(':') ? `[${host}]:${port}` : `${host}:${port}`;
}

function unbracket(hostname: string): string {
  return hostname.startsWith('[') ? hostname.slice(1, -1) : hostname;
}

function dialHttpProxy(url: URL, proxyHost: string, host: string, port: number, timeoutMs: number, done: DialDone): () => void {
  const target = authority(host, port);
  let head = `CONNECT ${target} HTTP/1.1\r\nHost: ${target}\r\n`;
  if (url.username || url.password) {
    const basic = Buffer.from(`${decodeURIComponent(url.username)}:${decodeURIComponent(url.password)}`).toString('base64');
    head += `Proxy-Authorization: Basic ${basic}\r\n`;
  }
  head += '\r\n';

  const socket = net.connect({ host: proxyHost, port: Number(url.port) || 80, noDelay: true });
  socket.write(head);
  let settled = false;
  let buffered: Buffer | null = null;
  const finish = (failure: UpstreamFailure | null, rest?: Buffer) => {
    if (settled) return;
    settled = true;
    socket.removeListener('data', onData);
    socket.removeListener('error', onError);
    socket.removeListener('end', onEnd);
    deadline.cancel();
    if (failure) {
      socket.on('error', ignore).destroy();
      done(failure, null);
      return;
    }
    // Pause before handing over: with the data listener gone, a flowing socket would drop bytes.
    socket.pause();
    if (rest && rest.length > 0) socket.unshift(rest);
    done(null, socket);
  };
  const onData = (chunk: Buffer) => {
    buffered = buffered ? Buffer.concat([buffered, chunk]) : chunk;
    const end = buffered.indexOf(HEAD_END);
    if (end === -1) {
      if (buffered.length > MAX_RESPONSE_HEAD) finish('UPSTREAM_ERROR');
      return;
    }
    // Status line, RFC 9112 §4: HTTP-version SP status-code SP [reason-phrase].
    const status = /^HTTP\/1\.[01] (\d{3})/.exec(buffered.toString('latin1', 0, Math.min(end, 64)));
    const code = status ? Number(status[1]) : 0;
    if (code >= 200 && code < 300) finish(null, buffered.subarray(end + HEAD_END.length));
    else if (code === 407) finish('UPSTREAM_AUTH');
    else if (code === 504) finish('UPSTREAM_TIMEOUT');
    else finish(code === 0 ? 'UPSTREAM_ERROR' : 'UPSTREAM_REJECTED');
  };
  const onError = (err: NodeJS.ErrnoException) => finish(failureOfErrno(err.code));
  const onEnd = () => finish('UPSTREAM_ERROR');
  const deadline = new Deadline(() => finish('UPSTREAM_TIMEOUT'));
  socket.on('data', onData);
  socket.on('error', onError);
  socket.once('end', onEnd);
  deadline.arm(Date.now() + timeoutMs);
  return () => {
    if (settled) return;
    settled = true;
    deadline.cancel();
    socket.on('error', ignore).destroy();
  };
}

/** The `socks` client reports failures as messages; RFC 1928 §6 reply names come after " - ". */
function failureOfSocksMessage(message: string): UpstreamFailure {
  if (message.includes('Authentication failed')) return 'UPSTREAM_AUTH';
  if (message.includes('timed out')) return 'UPSTREAM_TIMEOUT';
  if (message.includes('rejected connection')) {
    if (message.includes('ConnectionRefused')) return 'UPSTREAM_REFUSED';
    if (message.includes('HostUnreachable') || message.includes('NetworkUnreachable')) return 'UPSTREAM_UNREACHABLE';
    if (message.includes('TTLExpired')) return 'UPSTREAM_TIMEOUT';
    return 'UPSTREAM_REJECTED';
  }
  const errno = /\b(E[A-Z_]+)\b/.exec(message);
  return failureOfErrno(errno?.[1]);
}

/**
 * The `socks` client, loaded at the first SOCKS upstream: with its address library it is RSS that a
 * gateway without SOCKS upstreams never needs (docs/gateway.md, idle tunnels).
 */
let socksClient: Promise<typeof SocksClient> | null = null;

function dialSocksProxy(url: URL, proxyHost: string, host: string, port: number, timeoutMs: number, done: DialDone): () => void {
  let abandoned = false;
  let settled = false;
  socksClient ??= import('socks').then((m) => m.SocksClient);
  void socksClient.then((client) => client.createConnection({
    proxy: {
      host: proxyHost,
      port: Number(url.port) || 1080,
      type: url.protocol === 'socks4:' || url.protocol === 'socks4a:' ? 4 : 5,
      userId: url.username ? decodeURIComponent(url.username) : undefined,
      password: url.password ? decodeURIComponent(url.password) : undefined,
    },
    command: 'connect',
    destination: { host, port },
    timeout: timeoutMs,
    set_tcp_nodelay: true,
  })).then(
    ({ socket }) => {
      settled = true;
      if (abandoned) {
        socket.destroy();
        return;
      }
      socket.pause();
      done(null, socket);
    },
    (err: Error) => {
      settled = true;
      if (!abandoned) done(failureOfSocksMessage(err.message), null);
    },
  );
  return () => {
    if (!settled) abandoned = true;
  };
}

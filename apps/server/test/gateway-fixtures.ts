import http from 'node:http';
import https from 'node:https';
import net from 'node:net';
import { Server as ProxyChainServer } from 'proxy-chain';
import { generate } from 'selfsigned';
import { type Gateway, type GatewayOptions, createGateway } from '../src/gateway/gateway';
import type { Allowance, AuthResult, GatewayAuthority, PinnedExit, Refusal, UsageDelta, UsageSink } from '../src/gateway/ports';

/*
 * Gateway test kit (gateway tests use real sockets on 127.0.0.1): an in-memory authority and
 * usage sink that behave like the store side, local origins with known payload sizes, upstream proxies,
 * and raw HTTP-CONNECT and SOCKS5 clients that expose status and reply codes byte for byte.
 */

export const HOST = '127.0.0.1';

// ---------------------------------------------------------------- authority and sink

interface FakeAccount {
  id: number;
  userId: number;
  name: string;
  password: string;
  disabled: boolean;
  /** Traffic the user has (bytes). */
  balance: number;
  /** Account limit (bytes); null = none. */
  cap: number | null;
  used: number;
  /** Concurrent connections allowed; null = no limit. */
  maxConnections: number | null;
  /** A static IP's login: always this exit, no traffic balance. */
  pinned?: PinnedExit;
}

/** The store side's account cache, in memory: standing follows the usage the sink applied. */
export class FakeAuthority implements GatewayAuthority {
  readonly accounts = new Map<string, FakeAccount>();
  private readonly byId = new Map<number, FakeAccount>();
  private nextId = 1;

  /** The last usage batch applied (the store's figures include it). */
  seenSeq = 0;

  add(
    name: string,
    o: { password?: string; balance?: number; cap?: number | null; disabled?: boolean; userId?: number; maxConnections?: number | null; pinned?: PinnedExit } = {},
  ): FakeAccount {
    const id = this.nextId++;
    const a: FakeAccount = {
      id,
      userId: o.userId ?? 1000 + id,
      name,
      password: o.password ?? 'pw',
      disabled: o.disabled ?? false,
      balance: o.balance ?? 10 * 1024 ** 3,
      cap: o.cap ?? null,
      used: 0,
      maxConnections: o.maxConnections ?? null,
      pinned: o.pinned,
    };
    this.accounts.set(name, a);
    this.byId.set(id, a);
    return a;
  }

  authenticate(account: string, password: string): AuthResult {
    const a = this.accounts.get(account);
    if (!a) return { ok: false, reason: 'BAD_CREDENTIALS' };
    if (a.password !== password) return { ok: false, reason: 'BAD_CREDENTIALS', accountId: a.id };
    const r = this.standing(a.id);
    if (r) return { ok: false, reason: r };
    return a.pinned ? { ok: true, accountId: a.id, userId: a.userId, pinned: a.pinned } : { ok: true, accountId: a.id, userId: a.userId };
  }

  // No allowlist or port leases here: those are the store's (gateway-allowlist.test.ts runs them on the real cache).
  authenticateSource(): AuthResult {
    return { ok: false, reason: 'BAD_CREDENTIALS' };
  }

  portLease(): null {
    return null;
  }

  sourceListed(): boolean {
    return true;
  }

  catchUp(): Promise<void> {
    return Promise.resolve();
  }

  standing(accountId: number): Refusal | null {
    const a = this.byId.get(accountId);
    if (!a || a.disabled) return 'ACCOUNT_DISABLED';
    if (a.cap !== null && a.used >= a.cap) return 'ACCOUNT_CAP';
    if (!a.pinned && a.used >= a.balance) return 'NO_TRAFFIC';
    return null;
  }

  allowance(accountId: number): Allowance | null {
    const a = this.byId.get(accountId);
    if (!a) return null;
    const capLeft = a.cap === null ? null : a.cap - a.used;
    return { balance: a.pinned ? Infinity : a.balance - a.used, balanceSeq: this.seenSeq, capLeft, capSeq: this.seenSeq, maxConnections: a.maxConnections };
  }

  usageSeen(): number {
    return this.seenSeq;
  }

  consume(accountId: number, bytes: number): void {
    const a = this.byId.get(accountId);
    if (a) a.used += bytes;
  }
}

/** Applies each `(gatewayId, seq)` once, like the usage store, and feeds usage back to the authority. */
export class FakeSink implements UsageSink {
  readonly batches: { gatewayId: string; seq: number; deltas: UsageDelta[] }[] = [];
  private readonly applied = new Set<string>();
  failing = false;

  constructor(private readonly authority?: FakeAuthority) {}

  async flush(gatewayId: string, seq: number, deltas: UsageDelta[]): Promise<void> {
    if (this.failing) throw new Error('store unavailable');
    const id = `${gatewayId}/${seq}`;
    if (this.applied.has(id)) return;
    this.applied.add(id);
    this.batches.push({ gatewayId, seq, deltas: structuredClone(deltas) });
    for (const d of deltas) this.authority?.consume(d.accountId, d.bytesUp + d.bytesDown);
    if (this.authority) this.authority.seenSeq = seq;
  }

  total(accountId: number): { up: number; down: number } {
    let up = 0;
    let down = 0;
    for (const b of this.batches) {
      for (const d of b.deltas) {
        if (d.accountId !== accountId) continue;
        up += d.bytesUp;
        down += d.bytesDown;
      }
    }
    return { up, down };
  }

  countries(accountId: number): Set<string | null> {
    return new Set(this.batches.flatMap((b) => b.deltas.filter((d) => d.accountId === accountId).map((d) => d.country)));
  }
}

/** Direct egress reaches the local origins on 127.0.0.1 unless a test says `allowPrivateDestinations: false`. */
export async function startGateway(o: Partial<GatewayOptions> & Pick<GatewayOptions, 'chooser'>, authority = new FakeAuthority()) {
  const sink = (o.sink as FakeSink | undefined) ?? new FakeSink(authority);
  const gw: Gateway = createGateway({
    host: HOST,
    httpPort: 0,
    socksPort: 0,
    gatewayId: 'test-gw',
    authority,
    sink,
    flushMs: 100,
    enforceMs: 100,
    allowPrivateDestinations: true,
    ...o,
  });
  await gw.start();
  return { gw, authority, sink };
}

// ---------------------------------------------------------------- origins

const FILL = Buffer.alloc(1024 * 1024, 0x61);

/** Writes `n` bytes with backpressure, then calls `done`. */
export function writeBytes(socket: NodeJS.WritableStream, n: number, done?: () => void): void {
  let left = n;
  const pump = () => {
    while (left > 0) {
      const chunk = left >= FILL.length ? FILL : FILL.subarray(0, left);
      left -= chunk.length;
      if (!socket.write(chunk)) return void socket.once('drain', pump);
    }
    done?.();
  };
  pump();
}

/**
 * Raw TCP origin: reads an 8-byte header (uint32 up, uint32 down), swallows `up` bytes, answers `down`
 * bytes and ends. Payload sizes are exact, so metering can be checked to the byte.
 */
export async function startByteOrigin(): Promise<{ port: number; close: () => Promise<void> }> {
  const sockets = new Set<net.Socket>();
  const server = net.createServer((s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
    s.on('error', () => undefined);
    let header: Buffer | null = null;
    let pending = Buffer.alloc(0);
    let left = -1;
    s.on('data', (chunk: Buffer) => {
      if (!header) {
        pending = Buffer.concat([pending, chunk]);
        if (pending.length < 8) return;
        header = pending.subarray(0, 8);
        left = header.readUInt32BE(0);
        chunk = pending.subarray(8);
      }
      left -= chunk.length;
      if (left === 0) writeBytes(s, header.readUInt32BE(4), () => s.end());
    });
  });
  const port = await listen(server);
  return { port, close: () => closeServer(server, sockets) };
}

/** Sends a byte-origin exchange over `socket` and resolves once the origin has ended its answer. */
export function exchange(socket: net.Socket, up: number, down: number): Promise<number> {
  return new Promise((resolve, reject) => {
    const header = Buffer.alloc(8);
    header.writeUInt32BE(up, 0);
    header.writeUInt32BE(down, 4);
    let got = 0;
    socket.on('data', (c: Buffer) => (got += c.length));
    socket.once('end', () => {
      socket.end();
      resolve(got);
    });
    socket.once('error', reject);
    socket.resume();
    socket.write(header);
    writeBytes(socket, up);
  });
}

/**
 * HTTP origin: `GET /bytes/N` answers N bytes, `POST /upload` swallows the body and answers its size,
 * `GET /stream/RATE` sends RATE bytes a second until the client goes away.
 */
export async function startHttpOrigin(tls?: { key: string; cert: string }): Promise<{ port: number; close: () => Promise<void> }> {
  const sockets = new Set<net.Socket>();
  const handler: http.RequestListener = (req, res) => {
    const url = req.url ?? '';
    const bytes = /^\/bytes\/(\d+)$/.exec(url);
    const stream = /^\/stream\/(\d+)$/.exec(url);
    if (bytes) {
      const n = Number(bytes[1]);
      res.writeHead(200, { 'content-length': n, 'content-type': 'application/octet-stream' });
      writeBytes(res, n, () => res.end());
    } else if (url === '/upload') {
      let n = 0;
      req.on('data', (c: Buffer) => (n += c.length));
      req.on('end', () => res.end(String(n)));
    } else if (stream) {
      const perTick = Math.round(Number(stream[1]) / 20);
      res.writeHead(200, { 'content-type': 'application/octet-stream' });
      const timer = setInterval(() => res.write(FILL.subarray(0, perTick)), 50);
      res.on('close', () => clearInterval(timer));
    } else {
      res.writeHead(404).end();
    }
  };
  const server = tls ? https.createServer({ key: tls.key, cert: tls.cert }, handler) : http.createServer(handler);
  server.on('connection', (s: net.Socket) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  const port = await listen(server);
  return { port, close: () => closeServer(server, sockets) };
}

export async function selfSignedCert(): Promise<{ key: string; cert: string }> {
  const pems = await generate([{ name: 'commonName', value: 'localhost' }], { keyType: 'ec', algorithm: 'sha256' });
  return { key: pems.private, cert: pems.cert };
}

// ---------------------------------------------------------------- upstream proxies

export interface Upstream {
  port: number;
  url: string;
  /** CONNECT and plain requests this upstream carried. */
  carried: () => number;
  close: () => Promise<void>;
}

/** A proxy-chain server as an upstream exit, optionally requiring `user:pass`. */
export async function startUpstream(auth?: { user: string; pass: string }): Promise<Upstream> {
  const server = new ProxyChainServer({
    port: 0,
    host: HOST,
    prepareRequestFunction: ({ username, password }) => ({ requestAuthentication: auth ? username !== auth.user || password !== auth.pass : false }),
  });
  await server.listen();
  const cred = auth ? `${auth.user}:${auth.pass}@` : '';
  return {
    port: server.port,
    url: `http://${cred}${HOST}:${server.port}`,
    carried: () => server.stats.connectRequestCount + server.stats.httpRequestCount,
    close: () => server.close(true),
  };
}

/** A port nothing listens on. */
export async function closedPort(): Promise<number> {
  const s = net.createServer();
  const port = await listen(s);
  await new Promise((r) => s.close(r));
  return port;
}

/** Accepts TCP and never says a word (for timeouts). */
export async function startSilentServer(): Promise<{ port: number; close: () => Promise<void> }> {
  const sockets = new Set<net.Socket>();
  const server = net.createServer((s) => {
    sockets.add(s);
    s.on('error', () => undefined);
  });
  const port = await listen(server);
  return { port, close: () => closeServer(server, sockets) };
}

// ---------------------------------------------------------------- clients

export const basic = (user: string, pass: string) => `Basic ${Buffer.from(`${user}:${pass}`).toString('base64')}`;

/** A plain HTTP GET through the gateway: status and reason header. */
export function plainGet(port: number, url: string, auth: string): Promise<{ status: number; reason: string | undefined; body: string }> {
  return new Promise((resolve, reject) => {
    http
      .get({ host: HOST, port, path: url, agent: false, headers: { 'proxy-authorization': auth } }, (res) => {
        let body = '';
        res.on('data', (c: Buffer) => (body += c.toString()));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, reason: res.headers['x-gateway-reason'] as string | undefined, body }));
      })
      .on('error', reject);
  });
}

export interface HttpAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** Reads one HTTP response head (and a Content-Length body) from a socket; leaves the rest unread. */
export function readResponse(socket: net.Socket): Promise<HttpAnswer & { rest: Buffer }> {
  return new Promise((resolve, reject) => {
    let buf = Buffer.alloc(0);
    const onData = (c: Buffer) => {
      buf = Buffer.concat([buf, c]);
      const end = buf.indexOf('\r\n\r\n');
      if (end === -1) return;
      const lines = buf.toString('latin1', 0, end).split('\r\n');
      const status = Number(lines[0]!.split(' ')[1]);
      const headers: Record<string, string> = {};
      for (const l of lines.slice(1)) {
        const i = l.indexOf(':');
        headers[l.slice(0, i).trim().toLowerCase()] = l.slice(i + 1).trim();
      }
      const length = Number(headers['content-length'] ?? 0);
      if (buf.length < end + 4 + length) return;
      socket.removeListener('data', onData);
      socket.removeListener('error', reject);
      socket.pause();
      resolve({ status, headers, body: buf.toString('utf8', end + 4, end + 4 + length), rest: buf.subarray(end + 4 + length) });
    };
    socket.on('data', onData);
    socket.once('error', reject);
    socket.once('close', () => reject(new Error(`closed before a full response (${buf.length} bytes)`)));
    socket.resume();
  });
}

/** Opens a CONNECT tunnel; on 200 the socket is the tunnel, otherwise the refusal is returned. */
export async function connectTunnel(proxyPort: number, target: string, auth: string | null, localAddress?: string): Promise<HttpAnswer & { socket: net.Socket }> {
  const socket = net.connect({ port: proxyPort, host: HOST, localAddress });
  socket.on('error', () => undefined);
  const authLine = auth ? `Proxy-Authorization: ${auth}\r\n` : '';
  socket.write(`CONNECT ${target} HTTP/1.1\r\nHost: ${target}\r\n${authLine}\r\n`);
  const answer = await readResponse(socket);
  socket.removeAllListeners('close');
  if (answer.rest.length > 0) socket.unshift(answer.rest);
  return { ...answer, socket };
}

export type SocksResult = { socket: net.Socket; authStatus: number; rep: number };

/**
 * A byte-exact SOCKS5 client (RFC 1928/1929) that reports the auth status and the reply code. The target
 * goes as an IPv4 address (ATYP 1) when `host` is one, as 16 IPv6 bytes (ATYP 4) when it is a Buffer,
 * else as a domain name (ATYP 3).
 */
export function socksConnect(port: number, user: string, pass: string, host: string | Buffer, targetPort: number, localAddress?: string): Promise<SocksResult> {
  return new Promise((resolve, reject) => {
    const socket = net.connect({ port, host: HOST, localAddress });
    socket.on('error', reject);
    let stage = 0;
    let buf = Buffer.alloc(0);
    let authStatus = -1;
    const done = (rep: number) => {
      socket.removeAllListeners('data');
      socket.removeListener('error', reject);
      socket.on('error', () => undefined);
      socket.pause();
      if (buf.length > 0) socket.unshift(buf);
      resolve({ socket, authStatus, rep });
    };
    socket.on('close', () => done(-1));
    socket.on('data', (c: Buffer) => {
      buf = Buffer.concat([buf, c]);
      if (stage === 0 && buf.length >= 2) {
        buf = buf.subarray(2);
        stage = 1;
        const u = Buffer.from(user);
        const p = Buffer.from(pass);
        socket.write(Buffer.concat([Buffer.from([1, u.length]), u, Buffer.from([p.length]), p]));
      }
      if (stage === 1 && buf.length >= 2) {
        authStatus = buf[1]!;
        buf = buf.subarray(2);
        if (authStatus !== 0) return done(-1);
        stage = 2;
        const atyp = Buffer.isBuffer(host) ? 4 : net.isIPv4(host) ? 1 : 3;
        const addr = Buffer.isBuffer(host) ? host : atyp === 1 ? Buffer.from(host.split('.').map(Number)) : Buffer.concat([Buffer.from([host.length]), Buffer.from(host)]);
        const portBuf = Buffer.alloc(2);
        portBuf.writeUInt16BE(targetPort);
        socket.write(Buffer.concat([Buffer.from([5, 1, 0, atyp]), addr, portBuf]));
      }
      if (stage === 2 && buf.length >= 10) {
        const rep = buf[1]!;
        buf = buf.subarray(10);
        socket.removeAllListeners('close');
        done(rep);
      }
    });
    socket.write(Buffer.from([5, 1, 2]));
  });
}

/** Resolves when the socket is closed, with how long that took. */
export function closedWithin(socket: net.Socket): Promise<number> {
  const t0 = Date.now();
  return new Promise((resolve) => {
    if (socket.destroyed) return resolve(0);
    socket.once('close', () => resolve(Date.now() - t0));
    socket.resume();
  });
}

/** Polls `check` (which may ask over the network) until it holds. */
export async function waitFor(check: () => boolean | Promise<boolean>, timeoutMs = 5000, what = 'condition'): Promise<void> {
  const t0 = Date.now();
  while (!(await check())) {
    if (Date.now() - t0 > timeoutMs) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

// ---------------------------------------------------------------- plumbing

function listen(server: net.Server): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, HOST, () => resolve((server.address() as net.AddressInfo).port));
  });
}

function closeServer(server: net.Server, sockets: Set<net.Socket>): Promise<void> {
  for (const s of sockets) s.destroy();
  return new Promise((r) => server.close(() => r()));
}

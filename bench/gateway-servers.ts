/**
 * Bench child: one server per process, so its RSS is its own. Started by gateway.bench.ts (bundled by
 * esbuild, run with plain node); answers `{ cmd: 'rss' | 'cpu' | 'stop' }` over IPC.
 *
 *   origin       raw TCP byte origin (8-byte header: uint32 up, uint32 down) + HTTP origin (/bytes/N)
 *   tunnel       the bare minimum CONNECT proxy: http 'connect' → net.connect → pipe both ways
 *   socks        the bare minimum SOCKS5 proxy: no auth, CONNECT, pipe both ways
 *   proxy-chain  proxy-chain's Server, no auth, no upstream
 *   gateway      our gateway: auth, username parameters, exit choice, metering and enforcement
 *   gateway-allowlisted  the same, its clients found by address on an allowlist of 11,001 entries
 */
import http from 'node:http';
import net from 'node:net';
import type { AuthResult, GatewayAuthority, UsageSink } from '../apps/server/src/gateway/ports';

const HOST = '127.0.0.1';
const FILL = Buffer.alloc(256 * 1024, 0x61);

function send(msg: unknown): void {
  process.send?.(msg);
}

function listen(server: net.Server, port = 0): Promise<number> {
  return new Promise((resolve) => server.listen(port, HOST, () => resolve((server.address() as net.AddressInfo).port)));
}

function writeBytes(out: NodeJS.WritableStream, n: number, done: () => void): void {
  let left = n;
  const pump = () => {
    while (left > 0) {
      const chunk = left >= FILL.length ? FILL : FILL.subarray(0, left);
      left -= chunk.length;
      if (!out.write(chunk)) return void out.once('drain', pump);
    }
    done();
  };
  pump();
}

async function origin(): Promise<Record<string, number>> {
  const tcp = net.createServer((s) => {
    s.on('error', () => undefined);
    let head = Buffer.alloc(0);
    let left = -1;
    let down = 0;
    s.on('data', (c: Buffer) => {
      if (left < 0) {
        head = Buffer.concat([head, c]);
        if (head.length < 8) return;
        left = head.readUInt32BE(0);
        down = head.readUInt32BE(4);
        c = head.subarray(8);
      }
      left -= c.length;
      if (left === 0) writeBytes(s, down, () => s.end());
    });
  });
  const web = http.createServer((req, res) => {
    const n = Number(/^\/bytes\/(\d+)$/.exec(req.url ?? '')?.[1] ?? 0);
    res.writeHead(200, { 'content-length': n });
    res.end(FILL.subarray(0, n));
  });
  web.keepAliveTimeout = 60_000;
  return { tcpPort: await listen(tcp), httpPort: await listen(web) };
}

function pipeBoth(a: net.Socket, b: net.Socket): void {
  a.on('error', () => b.destroy());
  b.on('error', () => a.destroy());
  a.on('close', () => b.destroy());
  b.on('close', () => a.destroy());
  a.pipe(b).pipe(a);
}

async function bareTunnel(): Promise<Record<string, number>> {
  const server = http.createServer();
  server.on('connect', (req: http.IncomingMessage, socket: net.Socket, head: Buffer) => {
    const url = req.url ?? '';
    const colon = url.lastIndexOf(':');
    const upstream = net.connect(Number(url.slice(colon + 1)), url.slice(0, colon), () => {
      socket.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      if (head.length) upstream.write(head);
      pipeBoth(socket, upstream);
    });
    upstream.on('error', () => socket.destroy());
    socket.on('error', () => upstream.destroy());
  });
  return { port: await listen(server) };
}

async function bareSocks(): Promise<Record<string, number>> {
  const server = net.createServer((s) => {
    s.on('error', () => undefined);
    let buf = Buffer.alloc(0);
    let stage = 0;
    const onData = (c: Buffer) => {
      buf = Buffer.concat([buf, c]);
      if (stage === 0 && buf.length >= 2 + buf[1]!) {
        buf = buf.subarray(2 + buf[1]!);
        s.write(Buffer.from([5, 0]));
        stage = 1;
      }
      if (stage === 1 && buf.length >= 10) {
        const host = `${buf[4]}.${buf[5]}.${buf[6]}.${buf[7]}`;
        const port = buf.readUInt16BE(8);
        s.removeListener('data', onData);
        s.pause();
        stage = 2;
        const upstream = net.connect(port, host, () => {
          s.write(Buffer.from([5, 0, 0, 1, 0, 0, 0, 0, 0, 0]));
          pipeBoth(s, upstream);
        });
        upstream.on('error', () => s.destroy());
      }
    };
    s.on('data', onData);
  });
  return { port: await listen(server) };
}

// Loaded only by the kinds that use them, so each process's RSS holds its own code only.
async function proxyChain(): Promise<Record<string, number>> {
  const { Server: ProxyChainServer } = await import('proxy-chain');
  const server = new ProxyChainServer({ port: 0, host: HOST });
  await server.listen();
  return { port: server.port };
}

/** `allowlisted`: clients without credentials are looked up on an allowlist of 11,001 entries (their own address among them). */
async function gateway(allowlisted = false): Promise<Record<string, number>> {
  const { createGateway } = await import('../apps/server/src/gateway/gateway');
  const { UpstreamExitChooser } = await import('../apps/server/src/gateway/upstream-exit-chooser');
  let match = (_ip: string): number | undefined => undefined;
  if (allowlisted) {
    const { AddressMatcher, parseAllowlistAddress } = await import('../apps/server/src/lib/allowlist-address');
    // An installation's worth of allowlists: 10,000 single addresses and 1,000 /24s of other customers, and
    // the bench client's own address, so every connection pays a real lookup.
    const listed = new AddressMatcher<number>();
    for (let i = 0; i < 10_000; i++) listed.add(parseAllowlistAddress(`198.18.${i >> 8}.${i & 255}`)!, 2);
    for (let i = 0; i < 1000; i++) listed.add(parseAllowlistAddress(`100.${64 + (i >> 8)}.${i & 255}.0/24`)!, 2);
    listed.add(parseAllowlistAddress(HOST)!, 1);
    match = (ip) => listed.match(ip);
  }
  const authority: GatewayAuthority = {
    authenticate: (account: string, password: string): AuthResult =>
      account === 'bench01' && password === 'pw' ? { ok: true, accountId: 1, userId: 1 } : { ok: false, reason: 'BAD_CREDENTIALS' },
    authenticateSource: (ip: string): AuthResult => (match(ip) === 1 ? { ok: true, accountId: 1, userId: 1, username: 'bench01' } : { ok: false, reason: 'BAD_CREDENTIALS' }),
    portLease: () => null,
    sourceListed: (key) => key.source === undefined || match(key.source) === 1,
    catchUp: () => Promise.resolve(),
    standing: () => null,
    // A balance that never runs out, so the byte budget's per-chunk counter is on the measured path.
    allowance: () => ({ balance: Number.MAX_SAFE_INTEGER, balanceSeq: 0, capLeft: null, capSeq: 0, maxConnections: null }),
    usageSeen: () => 0,
  };
  let metered = 0;
  const sink: UsageSink = {
    async flush(_gw, _seq, deltas) {
      for (const d of deltas) metered += d.bytesUp + d.bytesDown;
    },
  };
  const gw = createGateway({ host: HOST, httpPort: 0, socksPort: 0, authority, chooser: new UpstreamExitChooser({ direct: true, directServesRegions: true }), sink, gatewayId: 'bench', allowPrivateDestinations: true });
  await gw.start();
  process.on('message', (m: { cmd: string }) => {
    if (m.cmd === 'metered') void gw.flush().then(() => send({ metered }));
  });
  return { port: gw.httpPort, socksPort: gw.socksPort };
}

const kinds: Record<string, () => Promise<Record<string, number>>> = {
  origin,
  tunnel: bareTunnel,
  socks: bareSocks,
  'proxy-chain': proxyChain,
  gateway: () => gateway(),
  'gateway-allowlisted': () => gateway(true),
};

const kind = process.argv[2] ?? '';
const start = kinds[kind];
if (!start) throw new Error(`unknown server kind ${kind}`);
process.on('message', (m: { cmd: string }) => {
  if (m.cmd === 'rss') send({ rss: process.memoryUsage().rss });
  if (m.cmd === 'cpu') {
    const c = process.cpuUsage();
    send({ cpu: c.user + c.system });
  }
  if (m.cmd === 'stop') process.exit(0);
});
process.on('disconnect', () => process.exit(0));
void start().then((ports) => send({ ready: ports }));

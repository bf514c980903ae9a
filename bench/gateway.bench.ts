/**
 * Gateway benchmark (`npm run bench`; not a test). Side by side on loopback, each server in its own
 * process: direct to the origin, a bare Node `net` CONNECT tunnel (and a bare SOCKS5 one), bare
 * proxy-chain, squid (what an operator would run instead; squid.ts), and our gateway with auth and metering (in-memory authority and sink, so the engine is
 * what is measured). Prints medians of several runs and the ratios the targets are stated in. Then the
 * account cache's refresh against a store of 100,000 accounts (account-cache.bench.ts).
 */
import { fork, spawnSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import net from 'node:net';
import { cpus, loadavg } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { accountCacheBench } from './account-cache.bench';
import { exitChooserBench } from './exit-chooser.bench';
import { squidBinary, startSquid } from './squid';

const HOST = '127.0.0.1';
const MB = 1024 * 1024;
const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const quick = process.argv.includes('--quick');
const DOWNLOAD = 100 * MB;
// A 100 MB download takes about a tenth of a second on loopback, so one is at the scheduler's mercy: many runs,
// medians. And one process of a server can be faster or slower than the next for the whole of its life (the
// same `pipe` measured 0.55-1.21x CPU per 100 MB between runs): the downloads go through several fresh
// processes of each server.
const RUNS = quick ? 2 : 15;
const GENERATIONS = quick ? 1 : 3;
const RATE_RUNS = quick ? 1 : 4;
const RATE_MS = quick ? 1000 : 2000;
const CONCURRENCY = 32;
const IDLE_TUNNELS = 1000;
const SETTLE_MS = quick ? 3000 : 25_000;
const AUTH = `Basic ${Buffer.from('bench01-country-us:pw').toString('base64')}`;
const SOCKS_USER = 'bench01-country-us';

// ------------------------------------------------------------------ servers in child processes

/** A server under test: its ports, and its process's CPU time (µs) and RSS on demand. */
interface Child {
  ports: Record<string, number>;
  cpu(): Promise<number>;
  rss(): Promise<number>;
  kill(): void;
}

/** A bench child process (gateway-servers.ts), which answers over IPC. */
interface NodeChild extends Child {
  ask<T>(cmd: string, key: string): Promise<T>;
}

async function bundle(): Promise<string> {
  // Plain node runs the children (no TypeScript loader in their RSS). Packages are bundled in too: an
  // ES module importing a CommonJS package from node_modules makes Node start its CommonJS export
  // lexer, a fixed ~13 MB of RSS per process that says nothing about the server being measured.
  const outdir = join(ROOT, 'node_modules', '.cache', 'resi-bench');
  mkdirSync(outdir, { recursive: true });
  await build({
    entryPoints: [join(ROOT, 'bench', 'gateway-servers.ts')],
    outdir,
    splitting: true,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    // Bundled CommonJS code calls require() for Node's own modules.
    banner: { js: "import { createRequire as __benchRequire } from 'node:module'; const require = __benchRequire(import.meta.url);" },
    logLevel: 'warning',
  });
  return join(outdir, 'gateway-servers.js');
}

/*
 * On loopback the clients, the origin and the proxy under test all compete for the same few cores, and
 * which of them the scheduler favours moves the rates by ±20 % between runs. As in a deployment, where
 * the proxy has its machine and the clients and sites are elsewhere, each proxy runs on a core of its
 * own (one at a time is under load) and the load generators on the rest. Needs `taskset` (util-linux)
 * and two cores; without them the run is unpinned and says so.
 */
const SERVER_CPU = '0';
const LOAD_CPUS = cpus().length > 1 ? `1-${cpus().length - 1}` : '0';
const pinning = cpus().length > 1 && spawnSync('taskset', ['-V']).status === 0;

function pin(pid: number, cpuList: string): void {
  if (pinning) spawnSync('taskset', ['-a', '-p', '-c', cpuList, String(pid)], { stdio: 'ignore' });
}

/**
 * The gateway runs as docs/deployment.md says gateway processes run: V8's young generation capped at
 * 2 MB semi-spaces. Left to itself V8 grows it to 8-16 MB under a burst of new long-lived tunnels and
 * gives it back only when its memory reducer happens to run (docs/gateway.md#implementation-notes). The other
 * servers run with Node's defaults, as their users would run them.
 */
const GATEWAY_NODE_FLAGS = ['--max-semi-space-size=2'];

function spawnServer(file: string, kind: string): Promise<NodeChild> {
  const proc = fork(file, [kind], { execArgv: kind === 'gateway' ? GATEWAY_NODE_FLAGS : [], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  // The servers measured share one core; the load (this process and the origin) runs on the others.
  if (proc.pid) pin(proc.pid, kind === 'origin' ? LOAD_CPUS : SERVER_CPU);
  const ask = <T>(cmd: string, key: string) =>
    new Promise<T>((resolve) => {
      const on = (m: Record<string, T>) => {
        if (key in m) {
          proc.off('message', on);
          resolve(m[key]!);
        }
      };
      proc.on('message', on);
      proc.send({ cmd });
    });
  return new Promise((resolve, reject) => {
    proc.once('error', reject);
    proc.on('message', (m: { ready?: Record<string, number> }) => {
      if (m.ready) resolve({ ports: m.ready, ask, cpu: () => ask<number>('cpu', 'cpu'), rss: () => ask<number>('rss', 'rss'), kill: () => proc.kill() });
    });
  });
}

/** Squid, the server an operator would pick instead (squid.ts); null when it is not installed. */
const SQUID = squidBinary();

async function spawnSquid(): Promise<Child | null> {
  if (!SQUID) return null;
  const sq = await startSquid(SQUID, HOST, (pid) => pin(pid, SERVER_CPU));
  return { ports: { port: sq.port }, cpu: async () => sq.cpuUs(), rss: async () => sq.rss(), kill: () => void sq.stop() };
}

// ------------------------------------------------------------------ clients

function connected(socket: net.Socket): Promise<void> {
  return new Promise((resolve, reject) => {
    socket.once('connect', resolve);
    socket.once('error', reject);
  });
}

/** Reads until `pred(buffer)` returns a length consumed; the socket is paused with the rest unshifted. */
function readUntil(socket: net.Socket, pred: (b: Buffer) => number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    let buf: Buffer = Buffer.alloc(0);
    const onData = (c: Buffer) => {
      buf = buf.length ? Buffer.concat([buf, c]) : c;
      const used = pred(buf);
      if (used < 0) return;
      socket.off('data', onData);
      socket.off('error', reject);
      socket.pause();
      if (buf.length > used) socket.unshift(buf.subarray(used));
      resolve(buf.subarray(0, used));
    };
    socket.on('data', onData);
    socket.once('error', reject);
    socket.resume();
  });
}

const headEnd = (b: Buffer) => {
  const i = b.indexOf('\r\n\r\n');
  return i < 0 ? -1 : i + 4;
};

type Route = { kind: 'direct' } | { kind: 'connect'; port: number; auth?: string } | { kind: 'socks'; port: number; user?: string };

/** A socket to the byte origin over `route`, ready for the 8-byte request. */
async function open(route: Route, originPort: number): Promise<net.Socket> {
  const port = route.kind === 'direct' ? originPort : route.port;
  const s = net.connect({ port, host: HOST, noDelay: true });
  s.on('error', () => undefined);
  if (route.kind === 'connect') {
    const auth = route.auth ? `Proxy-Authorization: ${route.auth}\r\n` : '';
    s.write(`CONNECT ${HOST}:${originPort} HTTP/1.1\r\nHost: ${HOST}:${originPort}\r\n${auth}\r\n`);
    const head = await readUntil(s, headEnd);
    if (!head.toString('latin1').startsWith('HTTP/1.1 200')) throw new Error(`CONNECT refused: ${head.toString('latin1').split('\r\n')[0]}`);
  } else if (route.kind === 'socks') {
    const portBuf = Buffer.alloc(2);
    portBuf.writeUInt16BE(originPort);
    const request = Buffer.concat([Buffer.from([5, 1, 0, 1, 127, 0, 0, 1]), portBuf]);
    if (route.user) {
      const u = Buffer.from(route.user);
      s.write(Buffer.concat([Buffer.from([5, 1, 2, 1, u.length]), u, Buffer.from([2]), Buffer.from('pw'), request]));
      await readUntil(s, (b) => (b.length >= 14 ? 14 : -1));
    } else {
      s.write(Buffer.concat([Buffer.from([5, 1, 0]), request]));
      await readUntil(s, (b) => (b.length >= 12 ? 12 : -1));
    }
  } else {
    await connected(s);
  }
  return s;
}

/** Asks the byte origin for `down` bytes and reads them to the end. */
function fetchBytes(s: net.Socket, down: number): Promise<number> {
  return new Promise((resolve) => {
    let got = 0;
    s.on('data', (c: Buffer) => (got += c.length));
    s.once('end', () => {
      s.destroy();
      resolve(got);
    });
    const h = Buffer.alloc(8);
    h.writeUInt32BE(0, 0);
    h.writeUInt32BE(down, 4);
    s.write(h);
    s.resume();
  });
}

/** MB/s of one 100 MB download, tunnel set-up included, and the proxy's CPU ms for it. */
async function throughput(route: Route, originPort: number, child: Child | null = null): Promise<Rate> {
  const cpu0 = await cpuOf(child);
  const t0 = performance.now();
  const s = await open(route, originPort);
  const got = await fetchBytes(s, DOWNLOAD);
  if (got !== DOWNLOAD) throw new Error(`short download: ${got}`);
  const perSecond = DOWNLOAD / MB / ((performance.now() - t0) / 1000);
  return { perSecond, cpuUs: child ? ((await cpuOf(child)) - cpu0) / 1000 : null };
}

/** A rate and what it cost the proxy process: CPU µs per operation (robust to a busy machine). */
interface Rate {
  perSecond: number;
  cpuUs: number | null;
  p99?: number;
}

async function cpuOf(child: Child | null): Promise<number> {
  return child ? child.cpu() : 0;
}

/** Completed tunnels per second (open, 16-byte exchange, close) with CONCURRENCY workers. */
async function tunnelRate(route: Route, originPort: number, child: Child | null): Promise<Rate> {
  let done = 0;
  let errors = 0;
  const cpu0 = await cpuOf(child);
  const until = performance.now() + RATE_MS;
  const worker = async () => {
    while (performance.now() < until) {
      try {
        const s = await open(route, originPort);
        if ((await fetchBytes(s, 16)) === 16) done++;
      } catch {
        errors++;
      }
    }
  };
  const t0 = performance.now();
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  const seconds = (performance.now() - t0) / 1000;
  if (errors > done / 100) throw new Error(`${errors} failed tunnels`);
  return { perSecond: done / seconds, cpuUs: child ? ((await cpuOf(child)) - cpu0) / done : null };
}

/** Requests/s and p99 latency of 1 KB GETs over CONCURRENCY kept-alive plain HTTP connections. */
async function keepAliveRate(proxyPort: number | null, auth: string | undefined, webPort: number, child: Child | null): Promise<Rate> {
  const latencies: number[] = [];
  const request = proxyPort
    ? `GET http://${HOST}:${webPort}/bytes/1024 HTTP/1.1\r\nHost: ${HOST}:${webPort}\r\n${auth ? `Proxy-Authorization: ${auth}\r\n` : ''}\r\n`
    : `GET /bytes/1024 HTTP/1.1\r\nHost: ${HOST}:${webPort}\r\n\r\n`;
  const cpu0 = await cpuOf(child);
  const until = performance.now() + RATE_MS;
  const worker = async () => {
    const s = net.connect({ port: proxyPort ?? webPort, host: HOST, noDelay: true });
    await connected(s);
    while (performance.now() < until) {
      const t0 = performance.now();
      s.write(request);
      await readUntil(s, (b) => {
        const end = headEnd(b);
        if (end < 0) return -1;
        const length = Number(/content-length: (\d+)/i.exec(b.toString('latin1', 0, end))?.[1] ?? 0);
        return b.length >= end + length ? end + length : -1;
      });
      latencies.push(performance.now() - t0);
    }
    s.destroy();
  };
  const t0 = performance.now();
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  const seconds = (performance.now() - t0) / 1000;
  latencies.sort((a, b) => a - b);
  return {
    perSecond: latencies.length / seconds,
    cpuUs: child ? ((await cpuOf(child)) - cpu0) / latencies.length : null,
    p99: latencies[Math.floor(latencies.length * 0.99)]!,
  };
}

/** Opens IDLE_TUNNELS idle tunnels through a fresh server process and keeps them open. */
async function openIdle(route: Route, originPort: number): Promise<net.Socket[]> {
  const sockets: net.Socket[] = [];
  for (let i = 0; i < IDLE_TUNNELS; i += 50) {
    sockets.push(...(await Promise.all(Array.from({ length: Math.min(50, IDLE_TUNNELS - i) }, () => open(route, originPort)))));
  }
  return sockets;
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
};

type Cells = (number | null)[];
interface Row {
  name: string;
  unit: string;
  cells: Cells;
}

// ------------------------------------------------------------------ the run

/** The table's columns; the ratios are the gateway's over the three before it. */
const COLUMNS = ['direct', 'net tunnel', 'proxy-chain', 'squid', 'gateway', 'gw allowlisted'] as const;
const [TUNNEL, PC, SQ, GW, AL] = [1, 2, 3, 4, 5];
type Column<T> = (T | null)[];

async function main(): Promise<void> {
  const started = performance.now();
  pin(process.pid, LOAD_CPUS);
  if (!SQUID) console.log("squid is not installed (Debian: apt-get install squid): its column is left out.");
  const file = await bundle();
  const originChild = await spawnServer(file, 'origin');
  const { tcpPort, httpPort } = originChild.ports as { tcpPort: number; httpPort: number };
  const tunnel = await spawnServer(file, 'tunnel');
  const socks = await spawnServer(file, 'socks');
  const pc = await spawnServer(file, 'proxy-chain');
  const sq = await spawnSquid();
  const gw = await spawnServer(file, 'gateway');
  const gwl = await spawnServer(file, 'gateway-allowlisted');

  const R = routes(tunnel, socks, pc, sq, gw, gwl);

  log('warm-up');
  for (const r of Object.values(R)) {
    if (!r) continue;
    await throughput(r, tcpPort);
    await tunnelRate(r, tcpPort, null);
  }
  for (const [port, auth] of [[null, undefined], [pc.ports.port!, undefined], [sq?.ports.port ?? null, undefined], [gw.ports.port!, AUTH], [gwl.ports.port!, undefined]] as const) await keepAliveRate(port, auth, httpPort, null);

  const rows: Row[] = [];
  const dl = (r: Route | null, c: Child | null) => (r ? () => throughput(r, tcpPort, c) : null);
  const med = (runs: Rate[][], pick: (r: Rate) => number | null | undefined) =>
    runs.map((xs) => (xs.length && pick(xs[0]!) != null ? median(xs.map((x) => pick(x)!)) : null));
  const empty = (): Rate[][] => COLUMNS.map(() => []);
  // Every measurement below runs the columns interleaved, in alternating order (A B C D E, E D C B A, …), so
  // a machine that gets busier or quieter during the run weighs on every column alike; the table shows medians.
  const forward = COLUMNS.map((_, i) => i);
  const order = (i: number) => (i % 2 ? [...forward].reverse() : forward);
  const measure = async (cols: Column<() => Promise<Rate>>, into: Rate[][], i: number) => {
    for (const c of order(i)) if (cols[c]) into[c]!.push(await cols[c]!());
  };
  log('100 MB downloads');
  const dlConnectRuns = empty();
  const dlSocksRuns = empty();
  for (let g = 0; g < GENERATIONS; g++) {
    const [t, s, p, w] = await Promise.all(['tunnel', 'socks', 'proxy-chain', 'gateway'].map((k) => spawnServer(file, k)));
    const q = await spawnSquid();
    const G = routes(t!, s!, p!, q, w!, null);
    const dlConnect = [dl(G.direct, null), dl(G.tunnel, t!), dl(G.pc, p!), dl(G.squid, q), dl(G.gw, w!)];
    const dlSocks = [dl(G.direct, null), dl(G.socks, s!), null, null, dl(G.gwSocks, w!)];
    for (const d of [...dlConnect, ...dlSocks]) await d?.(); // warm-up
    for (let i = 0; i < RUNS / GENERATIONS; i++) {
      await measure(dlConnect, dlConnectRuns, i);
      await measure(dlSocks, dlSocksRuns, i);
    }
    for (const c of [t, s, p, q, w]) c?.kill();
  }
  rows.push({ name: '100 MB download, CONNECT', unit: 'MB/s', cells: med(dlConnectRuns, (r) => r.perSecond) });
  rows.push({ name: '  proxy CPU per 100 MB, CONNECT', unit: 'ms', cells: med(dlConnectRuns, (r) => r.cpuUs) });
  rows.push({ name: '100 MB download, SOCKS5', unit: 'MB/s', cells: med(dlSocksRuns, (r) => r.perSecond) });
  rows.push({ name: '  proxy CPU per 100 MB, SOCKS5', unit: 'ms', cells: med(dlSocksRuns, (r) => r.cpuUs) });

  log('new tunnels per second');
  const tr = (r: Route | null, c: Child | null) => (r ? () => tunnelRate(r, tcpPort, c) : null);
  const connectRates = [tr(R.direct, null), tr(R.tunnel, tunnel), tr(R.pc, pc), tr(R.squid, sq), tr(R.gw, gw), tr(R.gwListed, gwl)];
  const socksRates = [tr(R.direct, null), tr(R.socks, socks), null, null, tr(R.gwSocks, gw), tr(R.gwListedSocks, gwl)];
  const connectRuns = empty();
  const socksRuns = empty();
  for (let i = 0; i < RATE_RUNS; i++) {
    await measure(connectRates, connectRuns, i);
    await measure(socksRates, socksRuns, i);
  }
  rows.push({ name: 'new tunnels/s, CONNECT', unit: '/s', cells: med(connectRuns, (r) => r.perSecond) });
  rows.push({ name: '  proxy CPU per CONNECT tunnel', unit: 'µs', cells: med(connectRuns, (r) => r.cpuUs) });
  rows.push({ name: 'new tunnels/s, SOCKS5', unit: '/s', cells: med(socksRuns, (r) => r.perSecond) });
  rows.push({ name: '  proxy CPU per SOCKS5 tunnel', unit: 'µs', cells: med(socksRuns, (r) => r.cpuUs) });

  const metered = await gw.ask<number>('metered', 'metered');
  log('kept-alive plain HTTP');
  const ka = (port: number | null | undefined, auth: string | undefined, c: Child | null) => (port !== undefined ? () => keepAliveRate(port, auth, httpPort, c) : null);
  const kaCols = [ka(null, undefined, null), null, ka(pc.ports.port!, undefined, pc), ka(sq?.ports.port, undefined, sq), ka(gw.ports.port!, AUTH, gw), ka(gwl.ports.port!, undefined, gwl)];
  const kaRuns = empty();
  for (let i = 0; i < RATE_RUNS; i++) await measure(kaCols, kaRuns, i);
  rows.push({ name: 'kept-alive plain HTTP, 1 KB GET', unit: 'req/s', cells: med(kaRuns, (r) => r.perSecond) });
  rows.push({ name: '  p99 latency', unit: 'ms', cells: med(kaRuns, (r) => r.p99) });
  rows.push({ name: '  proxy CPU per request', unit: 'µs', cells: med(kaRuns, (r) => r.cpuUs) });
  for (const c of [tunnel, socks, pc, sq, gw, gwl]) c?.kill();

  log(`RSS with ${IDLE_TUNNELS} idle tunnels`);
  // Fresh processes: RSS never shrinks back after the 100 MB downloads above.
  const fresh: Column<Child> = [null, ...(await Promise.all(['tunnel', 'proxy-chain'].map((k) => spawnServer(file, k)))), await spawnSquid(), await spawnServer(file, 'gateway')];
  const rssOf = () => Promise.all(fresh.map((c) => c?.rss() ?? null));
  const before = await rssOf();
  const held: net.Socket[][] = [];
  for (const [i, c] of fresh.entries()) if (c) held.push(await openIdle({ kind: 'connect', port: c.ports.port!, auth: i === GW ? AUTH : undefined }, tcpPort));
  await new Promise((r) => setTimeout(r, 1000));
  const loaded = await rssOf();
  // Idle for a while: V8 gives back the young generation it grew while the tunnels were being opened.
  await new Promise((r) => setTimeout(r, SETTLE_MS));
  const settled = await rssOf();
  for (const s of held.flat()) s.destroy();
  for (const c of [...fresh, originChild]) c?.kill();
  const mb = (xs: (number | null)[]) => xs.map((x) => (x === null ? null : x / MB));
  rows.push({ name: 'RSS, no tunnels', unit: 'MB', cells: mb(before) });
  rows.push({ name: `RSS, ${IDLE_TUNNELS} idle tunnels, after 1 s`, unit: 'MB', cells: mb(loaded) });
  rows.push({ name: `RSS, ${IDLE_TUNNELS} idle tunnels, after ${SETTLE_MS / 1000} s idle`, unit: 'MB', cells: mb(settled) });
  rows.push({ name: '  RSS added per idle tunnel (settled)', unit: 'KB', cells: settled.map((x, i) => (x === null ? null : (x - before[i]!) / 1024 / IDLE_TUNNELS)) });

  print(rows);
  const cell = (prefix: string, c: number) => rows.find((r) => r.name.startsWith(prefix))!.cells[c] ?? null;
  const ratio = (prefix: string, a: number, b: number) => {
    const x = cell(prefix, a);
    const y = cell(prefix, b);
    return x === null || y === null ? null : x / y;
  };
  const ka1k = 'kept-alive plain HTTP, 1 KB GET';
  const targets: [string, number | null, string][] = [
    ['CONNECT throughput ≥ 0.9× bare tunnel', ratio('100 MB download, CONNECT', GW, TUNNEL), '≥ 0.90'],
    ['proxy CPU per 100 MB over CONNECT ≤ 1.11× bare tunnel', ratio('  proxy CPU per 100 MB, CONNECT', GW, TUNNEL), '≤ 1.11'],
    ['SOCKS5 throughput ≥ 0.9× bare SOCKS5 tunnel', ratio('100 MB download, SOCKS5', GW, TUNNEL), '≥ 0.90'],
    ['new CONNECT tunnels/s ≥ 0.9× bare tunnel', ratio('new tunnels/s, CONNECT', GW, TUNNEL), '≥ 0.90'],
    ['new CONNECT tunnels/s ahead of bare proxy-chain', ratio('new tunnels/s, CONNECT', GW, PC), '> 1.00'],
    ['new SOCKS5 tunnels/s ≥ 0.9× bare SOCKS5 tunnel', ratio('new tunnels/s, SOCKS5', GW, TUNNEL), '≥ 0.90'],
    [`${IDLE_TUNNELS} idle tunnels under 64 MB RSS (settled)`, cell(`RSS, ${IDLE_TUNNELS} idle tunnels, after ${SETTLE_MS / 1000} s`, GW), '< 64'],
    ['proxy CPU per CONNECT tunnel ≤ 1.11× bare tunnel (= 0.9× its rate on a saturated core)', ratio('  proxy CPU per CONNECT tunnel', GW, TUNNEL), '≤ 1.11'],
    ['proxy CPU per CONNECT tunnel below bare proxy-chain', ratio('  proxy CPU per CONNECT tunnel', GW, PC), '< 1.00'],
    ['kept-alive plain HTTP req/s ≥ 1.5× bare proxy-chain', ratio(ka1k, GW, PC), '≥ 1.50'],
    ['kept-alive plain HTTP req/s ahead of squid', ratio(ka1k, GW, SQ), '> 1.00'],
    ['kept-alive plain HTTP p99 under 10 ms', cell('  p99 latency', GW), '< 10'],
  ];
  console.log('\nTargets (measured value, then the bar)');
  for (const [name, v, bar] of targets) {
    if (v === null) {
      console.log(`  skipped ${name}: squid is not installed`);
      continue;
    }
    const limit = Number(bar.slice(2));
    const ok = bar.startsWith('≥') ? v >= limit : bar.startsWith('>') ? v > limit : bar.startsWith('≤') ? v <= limit : v < limit;
    console.log(`  ${ok ? 'met   ' : 'MISSED'}  ${name}: ${v.toFixed(2)} (${bar})`);
  }
  const [load1, load5] = loadavg();
  console.log(`\n(${RUNS} interleaved runs for downloads through ${GENERATIONS} fresh processes of each server, ${RATE_RUNS}×${RATE_MS} ms for rates, ${CONCURRENCY} concurrent clients, ${cpus().length} CPUs, ${pinning ? `servers on CPU ${SERVER_CPU}, load on CPU ${LOAD_CPUS}` : 'not pinned'}; load average at the end ${load1!.toFixed(2)} (1 min), ${load5!.toFixed(2)} (5 min); the gateway metered ${(metered / MB).toFixed(0)} MB; total ${((performance.now() - started) / 1000).toFixed(0)} s)`);
}

function routes(tunnel: Child, socks: Child, pc: Child, squid: Child | null, gw: Child, listed: Child | null) {
  return {
    direct: { kind: 'direct' } as Route,
    tunnel: { kind: 'connect', port: tunnel.ports.port! } as Route,
    pc: { kind: 'connect', port: pc.ports.port! } as Route,
    squid: squid && ({ kind: 'connect', port: squid.ports.port! } as Route),
    gw: { kind: 'connect', port: gw.ports.port!, auth: AUTH } as Route,
    socks: { kind: 'socks', port: socks.ports.port! } as Route,
    gwSocks: { kind: 'socks', port: gw.ports.socksPort!, user: SOCKS_USER } as Route,
    // No credentials: the gateway finds the account by the client's address (docs/gateway.md#allowlist).
    gwListed: listed && ({ kind: 'connect', port: listed.ports.port! } as Route),
    gwListedSocks: listed && ({ kind: 'socks', port: listed.ports.socksPort! } as Route),
  };
}

function log(what: string): void {
  process.stderr.write(`… ${what}\n`);
}

function print(rows: Row[]): void {
  const fmt = (x: number | null, unit: string) => (x === null ? '—' : unit === 'ms' && x < 100 ? x.toFixed(2) : x >= 100 ? Math.round(x).toLocaleString('en-US') : x.toFixed(1));
  const r = (a: number | null, b: number | null) => (a === null || b === null ? '—' : `${(a / b).toFixed(2)}×`);
  const header = ['measure', 'unit', ...COLUMNS, 'gw / tunnel', 'gw / proxy-chain', 'gw / squid', 'allowlisted / gw'];
  const lines = rows.map((x) => {
    const cells = COLUMNS.map((_, i) => x.cells[i] ?? null);
    return [x.name, x.unit, ...cells.map((c) => fmt(c, x.unit)), r(cells[GW]!, cells[TUNNEL]!), r(cells[GW]!, cells[PC]!), r(cells[GW]!, cells[SQ]!), r(cells[AL]!, cells[GW]!)];
  });
  const widths = header.map((h, i) => Math.max(h.length, ...lines.map((l) => l[i]!.length)));
  const line = (cells: string[]) => `| ${cells.map((c, i) => (i < 2 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join(' | ')} |`;
  console.log(`\n${line(header)}\n|${widths.map((w, i) => (i < 2 ? `${'-'.repeat(w + 1)}-` : `${'-'.repeat(w + 1)}:`)).join('|')}|`);
  for (const l of lines) console.log(line(l));
  console.log('\n"net tunnel" is the bare CONNECT tunnel, or the bare SOCKS5 tunnel on SOCKS5 rows; the ratios are gateway / that column.');
  console.log('"gw allowlisted" is the gateway in a process of its own, reached without credentials from an address on an allowlist of 11,001 entries.');
  console.log(`The gateway runs with ${GATEWAY_NODE_FLAGS.join(' ')} (docs/deployment.md); the other Node servers with Node's defaults.`);
}

await main();
// The store side: what the gateway's account cache costs to keep fresh with 100,000 accounts.
await accountCacheBench(quick);
// The exit chooser's cost per connection with several providers.
await exitChooserBench(quick);
process.exit(0);

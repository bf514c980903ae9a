/**
 * API benchmark (`npm run bench:api`; not a test). The built server (`--role=api`, SQLite in a temporary
 * DATA_DIR, logging at its default level to /dev/null, as an operator runs it) beside a Fastify hello
 * world, each in its own process, loaded with autocannon from this one. Prints requests/s and latency
 * per route, the server's CPU time per request (steadier than req/s on a busy machine) and the ratio to
 * hello world that the target is stated in (GET /api/user ≥ 0.5× its req/s).
 *
 * Then the admin's data-heavy lists (bench/admin-data.ts seeds 100k users, 1M login logs, 100k orders) on
 * SQLite and, when TEST_DATABASE_URL is set, on PostgreSQL: p95 of one request at a time against 200 ms.
 * `--admin` runs only that part.
 */
import autocannon from 'autocannon';
import { type ChildProcess, fork, spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { openDatabase } from '../apps/server/src/db/database';
import { SIZES, seedAdminData } from './admin-data';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const quick = process.argv.includes('--quick');
const adminOnly = process.argv.includes('--admin');
const DURATION_S = quick ? 3 : 10;
const ROUNDS = quick ? 1 : 5;
const CONNECTIONS = 50;
const CAPTCHA = '2468';
const ADMIN = { email: 'bench-admin@example.com', password: 'bench-password-1' };

// Servers on CPU 0, the load generator on the rest (as in the gateway bench); unpinned without taskset.
const pinning = cpus().length > 1 && spawnSync('taskset', ['-V']).status === 0;
const pin = (pid: number | undefined, list: string) => pinning && pid && spawnSync('taskset', ['-a', '-p', '-c', list, String(pid)], { stdio: 'ignore' });

function waitForPort(child: ChildProcess): Promise<number> {
  return new Promise((resolve, reject) => {
    child.once('message', (m: { port: number }) => resolve(m.port));
    child.once('exit', (code) => reject(new Error(`server exited with ${code}`)));
  });
}

/** CPU seconds (user + system) a process has used so far, from /proc; null where there is no /proc. */
function cpuSeconds(pid: number | undefined): number | null {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    // utime and stime, fields 14 and 15 of proc(5), in clock ticks (100 a second on Linux).
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return null;
  }
}

async function startHello(): Promise<{ port: number; pid?: number; stop: () => void }> {
  const child = fork(join(ROOT, 'bench', 'api-hello.ts'), { execArgv: ['--import', 'tsx'], stdio: ['ignore', 'ignore', 'inherit', 'ipc'] });
  pin(child.pid, '0');
  return { port: await waitForPort(child), pid: child.pid, stop: () => child.kill() };
}

async function startApi(port: number, databaseUrl?: string): Promise<{ pid?: number; stop: () => void; dir: string }> {
  const dir = mkdtempSync(join(tmpdir(), 'resi-bench-api-'));
  const out = openSync('/dev/null', 'w');
  const child = spawn(process.execPath, [join(ROOT, 'apps/server/dist/main.js'), '--role=api'], {
    env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dir, ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}), NODE_ENV: 'test', CAPTCHA_TEST_ANSWER: CAPTCHA, ADMIN_EMAIL: ADMIN.email, ADMIN_PASSWORD: ADMIN.password },
    stdio: ['ignore', out, 'inherit'],
  });
  pin(child.pid, '0');
  let exited = false;
  child.once('exit', () => (exited = true));
  for (let i = 0; i < 200 && !exited; i++) {
    const up = await fetch(`http://127.0.0.1:${port}/api/site`).then((r) => r.ok, () => false);
    if (up) return { pid: child.pid, stop: () => child.kill(), dir };
    await new Promise((r) => setTimeout(r, 100));
  }
  child.kill();
  throw new Error('the API did not start');
}

async function adminToken(base: string): Promise<string> {
  const captcha = (await (await fetch(`${base}/api/captcha`)).json()) as { data: { id: string } };
  const res = await fetch(`${base}/api/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ account: ADMIN.email, password: ADMIN.password, captchaId: captcha.data.id, captcha: CAPTCHA }),
  });
  const body = (await res.json()) as { token?: string };
  if (!body.token) throw new Error(`login failed: ${JSON.stringify(body)}`);
  return body.token;
}

interface Figures {
  rps: number;
  p50: number;
  p99: number;
  errors: number;
  /** The server's CPU time per answered request, in µs: what other processes on the machine barely change. */
  cpuUs: number | null;
}

async function load(url: string, headers: Record<string, string>, serverPid: number | undefined): Promise<Figures> {
  const before = cpuSeconds(serverPid);
  const r = await autocannon({ url, connections: CONNECTIONS, duration: DURATION_S, headers });
  const after = cpuSeconds(serverPid);
  const bad = r.non2xx + r.errors + r.timeouts;
  const cpuUs = before === null || after === null || r.requests.total === 0 ? null : ((after - before) * 1e6) / r.requests.total;
  return { rps: r.requests.average, p50: r.latency.p50, p99: r.latency.p99, errors: bad, cpuUs };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

// BENCH_PORT: a free port of the caller's choosing, where several runs share one machine.
const PORT = Number(process.env.BENCH_PORT) || 20000 + Math.floor(Math.random() * 20000);

async function main(): Promise<void> {
  pin(process.pid, '1-' + (cpus().length - 1));
  spawnSync('npm', ['run', 'build'], { cwd: ROOT, stdio: 'inherit' });
  if (!adminOnly) await throughput(PORT);
  await adminLists(PORT + 10);
}

async function throughput(port: number): Promise<void> {
  const names = ['Fastify hello world', 'GET /api/user (signed in)', 'GET /api/manage/order (admin list)'];
  const runs = new Map<string, Figures[]>(names.map((name) => [name, []]));
  // Each round starts fresh processes: one process of the same server can be faster or slower than the
  // next for the whole of its life (GET /api/user took 75 to 150 µs of CPU in six fresh processes on a
  // quiet machine here), so one process per run would measure its luck. Interleaved rounds: a slow moment
  // of the machine hits every target alike.
  for (let round = 0; round < ROUNDS; round++) {
    const stops: (() => void)[] = [];
    const base = `http://127.0.0.1:${port + round}`;
    try {
      const hello = await startHello();
      stops.push(hello.stop);
      const api = await startApi(port + round);
      stops.push(api.stop, () => rmSync(api.dir, { recursive: true, force: true }));
      const auth = { authorization: `Bearer ${await adminToken(base)}` };
      const targets: [string, Record<string, string>, number | undefined][] = [
        [`http://127.0.0.1:${hello.port}/hello`, {}, hello.pid],
        [`${base}/api/user`, auth, api.pid],
        [`${base}/api/manage/order?page=1&pageSize=20`, auth, api.pid],
      ];
      for (const [i, [url, headers, pid]] of targets.entries()) {
        // A fresh process compiles its hot paths in its first second or two: warmed up, not measured.
        await autocannon({ url, connections: CONNECTIONS, duration: 2, headers });
        runs.get(names[i]!)!.push(await load(url, headers, pid));
      }
    } finally {
      for (const stop of stops) stop();
    }
  }
  const rows = names.map((name) => {
    const f = runs.get(name)!;
    const cpu = f.map((x) => x.cpuUs).filter((x) => x !== null);
    const cpuUs = cpu.length ? median(cpu) : null;
    return { name, rps: median(f.map((x) => x.rps)), p50: median(f.map((x) => x.p50)), p99: median(f.map((x) => x.p99)), errors: f.reduce((s, x) => s + x.errors, 0), cpuUs };
  });
  const floor = rows[0]!;
  console.log(`\n| target | req/s | p50 ms | p99 ms | non-2xx/errors | server CPU µs/req | vs hello world (req/s) | hello world's CPU/req ÷ this |`);
  console.log(`|---|---:|---:|---:|---:|---:|---:|---:|`);
  const us = (x: number | null) => (x === null ? '—' : x.toFixed(0));
  const cpuRatio = (x: number | null) => (x === null || floor.cpuUs === null ? '—' : `${(floor.cpuUs / x).toFixed(2)}×`);
  for (const r of rows) console.log(`| ${r.name} | ${r.rps.toFixed(0)} | ${r.p50} | ${r.p99} | ${r.errors} | ${us(r.cpuUs)} | ${(r.rps / floor.rps).toFixed(2)}× | ${cpuRatio(r.cpuUs)} |`);
  console.log(`\n(${ROUNDS} rounds of ${DURATION_S} s per target, each round with fresh processes, ${CONNECTIONS} connections, medians; ${cpus().length} CPUs, ${pinning ? 'servers on CPU 0, autocannon on the rest' : 'not pinned'}; target: GET /api/user ≥ 0.50× hello world)`);
}

const TARGET_MS = 200;
const SAMPLES = quick ? 10 : 40;

/** p95 of `SAMPLES` requests one after another (after two to warm up); null when the route answers 404. */
async function p95(url: string, token: string): Promise<number | null> {
  const times: number[] = [];
  for (let i = 0; i < SAMPLES + 2; i++) {
    const start = performance.now();
    const res = await fetch(url, { headers: { authorization: `Bearer ${token}` } });
    await res.arrayBuffer();
    if (res.status === 404) return null;
    if (res.status !== 200) throw new Error(`${url}: ${res.status}`);
    if (i >= 2) times.push(performance.now() - start);
  }
  times.sort((a, b) => a - b);
  return times[Math.ceil(times.length * 0.95) - 1]!;
}

/** The admin lists over the seeded data, once per store. */
async function adminLists(port: number): Promise<void> {
  const stores: { name: string; url?: string; drop?: () => Promise<void> }[] = [{ name: 'SQLite' }];
  if (process.env.TEST_DATABASE_URL) {
    const name = `resi_bench_${process.pid}`;
    const admin = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
    await admin.connect();
    await admin.query(`create database ${name}`);
    await admin.end();
    const url = new URL(process.env.TEST_DATABASE_URL);
    url.pathname = `/${name}`;
    const drop = async () => {
      const c = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
      await c.connect();
      await c.query(`drop database if exists ${name} with (force)`);
      await c.end();
    };
    stores.push({ name: 'PostgreSQL', url: url.toString(), drop });
  }
  const today = new Date().toISOString().slice(0, 10);
  const daysAgo = (n: number) => new Date(Date.now() - n * 86_400_000).toISOString().slice(0, 10);
  const targets = (base: string): [string, string][] => [
    ['GET /api/manage/statistics (90 days by day)', `${base}/api/manage/statistics?from=${daysAgo(89)}&to=${today}&groupBy=day`],
    ['GET /api/manage/user (email contains, active, page 2)', `${base}/api/manage/user?email=bench12&status=active&page=2&pageSize=20`],
    ['GET /api/manage/order (paid by card, 30 days, page 2)', `${base}/api/manage/order?status=paid&payMethod=card&from=${daysAgo(29)}&to=${today}&page=2&pageSize=20`],
    ['GET /api/manage/logs (failures, 7 days)', `${base}/api/manage/logs?result=bad-password&from=${daysAgo(6)}&to=${today}&page=1&pageSize=20`],
  ];
  const rows: string[] = [];
  // A port per store: the last store's server may still be closing.
  for (const [i, store] of stores.entries()) {
    const base = `http://127.0.0.1:${port + i}`;
    const api = await startApi(port + i, store.url);
    try {
      const db = openDatabase({ databaseUrl: store.url, dataDir: api.dir });
      const seeding = performance.now();
      await seedAdminData(db.db);
      await db.db.destroy();
      console.log(`${store.name}: seeded in ${((performance.now() - seeding) / 1000).toFixed(1)} s`);
      const token = await adminToken(base);
      for (const [name, url] of targets(base)) {
        const ms = await p95(url, token);
        rows.push(`| ${store.name} | ${name} | ${ms === null ? 'n/a' : ms.toFixed(1)} | ${ms === null ? 'n/a (404)' : ms <= TARGET_MS ? 'yes' : 'NO'} |`);
      }
    } finally {
      api.stop();
      rmSync(api.dir, { recursive: true, force: true });
      await store.drop?.();
    }
  }
  console.log(`\n${SIZES.users.toLocaleString('en')} users, ${SIZES.loginLogs.toLocaleString('en')} login logs, ${SIZES.orders.toLocaleString('en')} orders, ${SIZES.usage.toLocaleString('en')} usage rows; ${SAMPLES} requests one at a time`);
  console.log(`| store | target | p95 ms | ≤ ${TARGET_MS} ms |`);
  console.log(`|---|---|---:|---|`);
  for (const row of rows) console.log(row);
}

await main();

/**
 * The console's speed as the web measures it (`npm run bench:web`; not a test): Lighthouse's mobile preset
 * (simulated slow 4G, 4× CPU slowdown) on every route of the route table, against the built server on a fresh
 * embedded store with demo data. Three runs per route; the table prints their medians — performance score,
 * FCP, LCP, TBT, CLS, the JavaScript the browser downloaded — marks each against Core Web Vitals' "good"
 * (LCP ≤ 2.5 s, TBT ≤ 200 ms, CLS ≤ 0.1; score ≥ 90 on the five pages a new customer meets first), and the
 * machine's load average beside it (a loaded machine slows the trace Lighthouse simulates from).
 *
 * Public routes are opened signed out, customer routes as a customer with traffic and a proxy account,
 * distribution and admin routes as the admin (a distributor too). The session (token and user) is put in
 * sessionStorage before each page's scripts run, as the console keeps it after sign-in: a tab that knows its
 * user draws the layout while the user is checked again, as a returning customer's does.
 *
 * Flags: `--runs=N` (3), `--only=<text>[,<text>…]` (routes whose path contains one), `--no-build` (use the last build),
 * `--save=<dir>` (each run's Lighthouse report as JSON, to see where the time goes), `--check` (exit 1 when a
 * route misses a target). BENCH_PORT_BASE picks the ports; unset: free ones.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import { loadavg, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import lighthouse, { type Flags, type Result } from 'lighthouse';
import puppeteer, { type Browser } from 'puppeteer-core';
import { build } from 'vite';
import { appRoutes } from '../apps/web/src/app/routes';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const WEB = join(ROOT, 'apps/web');
const BASE = '/manage';
const CAPTCHA = '2468';
const ADMIN = { email: 'admin@bench.test', password: 'BenchPass123' };
const CUSTOMER = { email: 'customer@bench.test', password: 'BenchPass123' };
const arg = (name: string) => process.argv.find((a) => a.startsWith(`--${name}=`))?.split('=')[1];
const RUNS = Number(arg('runs') ?? 3);
const ONLY = arg('only')?.split(',');
const check = process.argv.includes('--check');
const noBuild = process.argv.includes('--no-build');
const SAVE = arg('save');

/** Core Web Vitals' "good" thresholds, and the score the first pages a customer meets must reach. */
const TARGET = { lcpMs: 2500, tbtMs: 200, cls: 0.1, score: 90 };
const SCORED = new Set(['/user/login', '/user/register', '/center', '/center/buy', '/center/proxy']);

// ------------------------------------------------------------------ server

function buildServer(): Promise<void> {
  return new Promise((resolve, reject) => {
    const proc = spawn(process.execPath, [join(ROOT, 'apps/server/build.mjs')], { stdio: 'inherit' });
    proc.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`server build exited with ${code}`))));
  });
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

async function ports(): Promise<[number, number, number]> {
  const base = Number(process.env.BENCH_PORT_BASE);
  if (base) return [base, base + 1, base + 2];
  return [await freePort(), await freePort(), await freePort()];
}

async function startServer(): Promise<{ url: string; proc: ChildProcess; dataDir: string }> {
  const [port, gatewayHttp, gatewaySocks] = await ports();
  const dataDir = mkdtempSync(join(tmpdir(), 'resi-web-bench-'));
  const proc = spawn(process.execPath, [join(ROOT, 'apps/server/dist/main.js')], {
    stdio: 'inherit',
    env: {
      ...process.env,
      DATABASE_URL: '',
      DATA_DIR: dataDir,
      PORT: String(port),
      HOST: '127.0.0.1',
      GATEWAY_HTTP_PORT: String(gatewayHttp),
      GATEWAY_SOCKS_PORT: String(gatewaySocks),
      NODE_ENV: 'test',
      LOG_LEVEL: 'warn',
      DEMO_DATA: 'on',
      CAPTCHA_TEST_ANSWER: CAPTCHA,
      ADMIN_EMAIL: ADMIN.email,
      ADMIN_PASSWORD: ADMIN.password,
    },
  });
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (proc.exitCode !== null) throw new Error(`server exited with ${proc.exitCode}`);
    const up = await fetch(`${url}/api/site`).then((r) => r.ok, () => false);
    if (up) return { url, proc, dataDir };
    if (Date.now() > deadline) throw new Error('server did not answer /api/site within 60 s');
    await new Promise((r) => setTimeout(r, 200));
  }
}

async function api<T>(url: string, path: string, body: unknown, token?: string): Promise<T> {
  const res = await fetch(`${url}/api${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify(body),
  });
  if (!res.ok) throw new Error(`${path}: ${res.status} ${await res.text()}`);
  return (await res.json()) as T;
}

async function login(url: string, who: { email: string; password: string }): Promise<string> {
  const captcha = (await (await fetch(`${url}/api/captcha`)).json()) as { data: { id: string } };
  return (await api<{ token: string }>(url, '/login', { account: who.email, password: who.password, captchaId: captcha.data.id, captcha: CAPTCHA })).token;
}

/** A signed-in tab's session storage, as the console leaves it after sign-in: the token and the user. */
interface Session {
  token: string;
  userInfo: string;
}

async function session(url: string, token: string): Promise<Session> {
  const res = await fetch(`${url}/api/user`, { headers: { authorization: `Bearer ${token}` } });
  if (!res.ok) throw new Error(`/user: ${res.status}`);
  return { token, userInfo: JSON.stringify(((await res.json()) as { data: unknown }).data) };
}

/** The admin (made a distributor) and a customer of theirs with 10 GB and a proxy account: pages with data. */
async function seed(url: string): Promise<{ admin: Session; customer: Session }> {
  const admin = await login(url, ADMIN);
  await api(url, '/manage/user/1', { isDistributor: true }, admin);
  const { data } = await api<{ data: { id: number } }>(url, '/distribution/saveuser', CUSTOMER, admin);
  await api(url, '/manage/recharge', { userId: data.id, bytes: 10 * 1024 ** 3, validityDays: 30, note: 'bench' }, admin);
  const customer = await login(url, CUSTOMER);
  await api(url, '/proxy/dynamic', { username: 'benchuser', password: 'benchpass123' }, customer);
  return { admin: await session(url, admin), customer: await session(url, customer) };
}

// ------------------------------------------------------------------ lighthouse

interface Run {
  score: number;
  fcp: number;
  lcp: number;
  tbt: number;
  cls: number;
  /** Bytes of JavaScript transferred (compressed, headers included), as Lighthouse's resource summary counts them. */
  js: number;
}

function runOf(lhr: Result): Run {
  const audit = (id: string) => lhr.audits[id]?.numericValue ?? Number.NaN;
  const summary = (lhr.audits['resource-summary']?.details as { items?: { resourceType: string; transferSize: number }[] } | undefined)?.items ?? [];
  return {
    score: Math.round((lhr.categories.performance?.score ?? 0) * 100),
    fcp: audit('first-contentful-paint'),
    lcp: audit('largest-contentful-paint'),
    tbt: audit('total-blocking-time'),
    cls: audit('cumulative-layout-shift'),
    js: summary.find((i) => i.resourceType === 'script')?.transferSize ?? 0,
  };
}

async function lighthouseRun(browser: Browser, url: string, signedIn: Session | null, name: string): Promise<Run> {
  const page = await browser.newPage();
  try {
    // Before the console's own scripts, on every document Lighthouse loads (it resets storage first).
    if (signedIn) {
      await page.evaluateOnNewDocument((s: Session) => {
        sessionStorage.setItem('token', s.token);
        sessionStorage.setItem('userInfo', s.userInfo);
      }, signedIn);
    }
    const flags: Flags = { logLevel: 'error', output: 'json', onlyCategories: ['performance'] };
    const result = await lighthouse(url, flags, undefined, page);
    if (!result) throw new Error(`no Lighthouse result for ${url}`);
    const landed = new URL(result.lhr.finalDisplayedUrl).pathname;
    if (landed !== new URL(url).pathname) throw new Error(`${url} landed on ${landed}`);
    if (result.lhr.runtimeError) throw new Error(`${url}: ${result.lhr.runtimeError.message}`);
    if (SAVE) {
      mkdirSync(SAVE, { recursive: true });
      writeFileSync(join(SAVE, `${name}.json`), JSON.stringify(result.lhr));
    }
    return runOf(result.lhr);
  } finally {
    await page.close();
  }
}

/**
 * Lighthouse itself sometimes fails to record a load's trace (NO_NAVSTART, NO_FCP on a page that painted): such
 * a run is made again, up to twice, and said so. The page's own failures (landing elsewhere) are not retried.
 */
async function withRetry(run: () => Promise<Run>): Promise<Run> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await run();
    } catch (error) {
      const message = (error as Error).message;
      if (attempt === 3 || !/NO_NAVSTART|NO_FCP|NO_LCP|trace/i.test(message)) throw error;
      console.log(`  Lighthouse could not record a run (${message.slice(0, 120)}); running it again`);
    }
  }
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

// ------------------------------------------------------------------ report

interface Row {
  path: string;
  run: Run;
  load: number;
  missed: string[];
}

function judge(path: string, run: Run): string[] {
  const missed: string[] = [];
  if (run.lcp > TARGET.lcpMs) missed.push('LCP');
  if (run.tbt > TARGET.tbtMs) missed.push('TBT');
  if (run.cls > TARGET.cls) missed.push('CLS');
  if (SCORED.has(path) && run.score < TARGET.score) missed.push('score');
  return missed;
}

function print(rows: Row[]): void {
  const header = ['route', 'score', 'FCP s', 'LCP s', 'TBT ms', 'CLS', 'JS kB', 'load', 'targets'];
  const cells = rows.map((r) => [
    r.path,
    `${r.run.score}${SCORED.has(r.path) ? '*' : ''}`,
    (r.run.fcp / 1000).toFixed(2),
    (r.run.lcp / 1000).toFixed(2),
    Math.round(r.run.tbt).toString(),
    r.run.cls.toFixed(3),
    (r.run.js / 1000).toFixed(1),
    r.load.toFixed(2),
    r.missed.length ? `missed ${r.missed.join(', ')}` : 'met',
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...cells.map((c) => c[i]!.length)));
  const line = (c: string[]) => c.map((v, i) => (i === 0 || i === 8 ? v.padEnd(widths[i]!) : v.padStart(widths[i]!))).join('  ');
  console.log(`\nLighthouse ${RUNS > 1 ? `medians of ${RUNS} runs` : '1 run'}, mobile preset (simulated slow 4G, 4× CPU); targets: LCP ≤ ${TARGET.lcpMs / 1000} s, TBT ≤ ${TARGET.tbtMs} ms, CLS ≤ ${TARGET.cls}, score ≥ ${TARGET.score} where marked *. "load": the 1-minute load average after the route's runs.\n`);
  console.log(line(header));
  for (const c of cells) console.log(line(c));
  const missed = rows.filter((r) => r.missed.length);
  console.log(`\n${rows.length - missed.length} of ${rows.length} routes met every target.`);
}

async function main(): Promise<void> {
  if (!noBuild) {
    console.log('building the web app and the server…');
    await build({ configFile: join(WEB, 'vite.config.ts'), logLevel: 'warn' });
    await buildServer();
  }
  const server = await startServer();
  const browser = await puppeteer.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking'],
  });
  const rows: Row[] = [];
  try {
    const sessions = await seed(server.url);
    const routes = appRoutes.filter((r) => r.path !== '/error' && (!ONLY || ONLY.some((text) => r.path.includes(text))));
    for (const route of routes) {
      const signedIn = route.access === 'public' ? null : route.access === 'customer' ? sessions.customer : sessions.admin;
      const runs: Run[] = [];
      for (let i = 0; i < RUNS; i += 1) runs.push(await withRetry(() => lighthouseRun(browser, `${server.url}${BASE}${route.path}`, signedIn, `${route.name}-${i + 1}`)));
      const run: Run = {
        score: median(runs.map((r) => r.score)),
        fcp: median(runs.map((r) => r.fcp)),
        lcp: median(runs.map((r) => r.lcp)),
        tbt: median(runs.map((r) => r.tbt)),
        cls: median(runs.map((r) => r.cls)),
        js: median(runs.map((r) => r.js)),
      };
      const row = { path: route.path, run, load: loadavg()[0]!, missed: judge(route.path, run) };
      rows.push(row);
      console.log(`${route.path}: score ${run.score}, LCP ${(run.lcp / 1000).toFixed(2)} s, TBT ${Math.round(run.tbt)} ms, CLS ${run.cls.toFixed(3)}`);
    }
  } finally {
    await browser.close();
    server.proc.kill('SIGTERM');
    await new Promise((r) => server.proc.once('exit', r));
    rmSync(server.dataDir, { recursive: true, force: true });
  }
  print(rows);
  if (check && rows.some((r) => r.missed.length)) process.exitCode = 1;
}

await main();

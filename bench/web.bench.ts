/**
 * First-load budgets of the console (`npm run bench:web`; not a test). Builds the web app and the server,
 * starts the built server on a throw-away store, and opens every route of the route table in Chromium
 * with an empty cache (signed in as the admin, so every page renders, not its 403 state). Counts the
 * JavaScript and CSS each cold visit fetched, compressed as the server sends it: the `.br` file the build
 * wrote beside each asset (what the browser here is sent; the `.gz` figure is printed too, for clients
 * without brotli), the file itself where none was written (under 1 KB). The store is a fresh demo one:
 * lists are empty, so a part that a page would import only once it has rows is not counted.
 *
 * The "floor" column is what a bare page costs with the same build settings: React, ReactDOM and antd's
 * Button, Form and Input, nothing else. Below the table: the floor of React alone and of the libraries
 * every page of this app runs on (router, i18next, TanStack Query), so the budgets can be judged.
 *
 * `--check` exits 1 when a route is over its budget. BENCH_PORT_BASE picks the ports (API, two gateway
 * listeners); unset: free ones.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from '@playwright/test';
import { build } from 'vite';
import { appRoutes } from '../apps/web/src/app/routes';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const WEB = join(ROOT, 'apps/web');
const DIST = join(WEB, 'dist');
const BASE = '/manage';
const KB = 1000;
const CAPTCHA = '2468';
const ADMIN = { email: 'admin@bench.test', password: 'BenchPass123' };
const check = process.argv.includes('--check');

/** Budgets in kB of compressed JavaScript on a cold visit (issue 11). */
const BUDGET_KB: Record<string, number> = { '/user/login': 150, '/center': 250 };
const OTHER_BUDGET_KB = 250;

interface AssetSize {
  raw: number;
  br: number;
  gz: number;
}

/** What the server sends for one built asset: the precompressed copy, or the file under the threshold. */
function assetSize(file: string): AssetSize {
  const raw = statSync(file).size;
  const sized = (ext: string) => (existsSync(file + ext) ? statSync(file + ext).size : raw);
  return { raw, br: sized('.br'), gz: sized('.gz') };
}

const sum = (sizes: AssetSize[], key: keyof AssetSize) => sizes.reduce((total, size) => total + size[key], 0);
const kb = (bytes: number) => (bytes / KB).toFixed(1);

// ------------------------------------------------------------------ builds

async function buildWeb(): Promise<Set<string>> {
  await build({ configFile: join(WEB, 'vite.config.ts'), logLevel: 'warn' });
  // What index.html itself loads (entry, modulepreloads, stylesheet): everything else is a lazy chunk.
  const html = readFileSync(join(DIST, 'index.html'), 'utf8');
  return new Set([...html.matchAll(/(?:src|href)="\/manage\/(assets\/[^"]+)"/g)].map((m) => m[1]!));
}

function buildServer(): Promise<void> {
  return new Promise((resolve, reject) => {
    const proc = spawn(process.execPath, [join(ROOT, 'apps/server/build.mjs')], { stdio: 'inherit' });
    proc.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`server build exited with ${code}`))));
  });
}

const FLOORS = {
  react: {
    label: 'React + ReactDOM',
    code: `import { createRoot } from 'react-dom/client';
createRoot(document.getElementById('root')).render(<p>hello</p>);`,
  },
  antd: {
    label: 'React + ReactDOM + antd Button, Form, Input',
    code: `import { createRoot } from 'react-dom/client';
import { Button, Form, Input } from 'antd';
createRoot(document.getElementById('root')).render(
  <Form onFinish={() => {}}>
    <Form.Item name="account" rules={[{ required: true }]}><Input /></Form.Item>
    <Form.Item name="password"><Input.Password /></Form.Item>
    <Button type="primary" htmlType="submit">Log in</Button>
  </Form>,
);`,
  },
  stack: {
    label: '… + react-router, i18next, react-i18next, TanStack Query',
    code: `import { createRoot } from 'react-dom/client';
import { Button, Form, Input } from 'antd';
import i18next from 'i18next';
import { I18nextProvider, initReactI18next, useTranslation } from 'react-i18next';
import { QueryClient, QueryClientProvider, useQuery } from '@tanstack/react-query';
import { createBrowserRouter, RouterProvider } from 'react-router';
const i18n = i18next.createInstance();
void i18n.use(initReactI18next).init({ lng: 'en', resources: { en: { translation: { hi: 'Log in' } } }, initAsync: false });
function Page() {
  const { t } = useTranslation();
  const q = useQuery({ queryKey: ['x'], queryFn: async () => 1 });
  return (
    <Form onFinish={() => {}}>
      <Form.Item name="account" rules={[{ required: true }]}><Input /></Form.Item>
      <Form.Item name="password"><Input.Password /></Form.Item>
      <Button type="primary" htmlType="submit">{t('hi')}{q.data}</Button>
    </Form>
  );
}
const router = createBrowserRouter([{ path: '/', element: <Page /> }]);
createRoot(document.getElementById('root')).render(
  <I18nextProvider i18n={i18n}><QueryClientProvider client={new QueryClient()}><RouterProvider router={router} /></QueryClientProvider></I18nextProvider>,
);`,
  },
} as const;

/** Builds a bare page with the app's own build config (so the same plugins, target and compression). */
async function floor(code: string): Promise<AssetSize> {
  // Under node_modules so the page's imports resolve to the same packages the app uses.
  const dir = join(ROOT, 'node_modules/.cache/resi-web-floor');
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'index.html'), '<!doctype html><div id="root"></div><script type="module" src="./main.jsx"></script>');
  writeFileSync(join(dir, 'main.jsx'), code);
  await build({ configFile: join(WEB, 'vite.config.ts'), root: dir, logLevel: 'warn', build: { outDir: join(dir, 'dist'), emptyOutDir: true } });
  const assets = join(dir, 'dist/assets');
  const js = readdirSync(assets).filter((file) => file.endsWith('.js')).map((file) => assetSize(join(assets, file)));
  return { raw: sum(js, 'raw'), br: sum(js, 'br'), gz: sum(js, 'gz') };
}

// ------------------------------------------------------------------ server

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as net.AddressInfo;
      srv.close(() => resolve(port));
    });
    srv.on('error', reject);
  });
}

async function ports(): Promise<[number, number, number]> {
  const base = process.env.BENCH_PORT_BASE ? Number(process.env.BENCH_PORT_BASE) : null;
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

async function adminToken(url: string): Promise<string> {
  const captcha = (await (await fetch(`${url}/api/captcha`)).json()) as { data: { id: string } };
  const res = await fetch(`${url}/api/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ account: ADMIN.email, password: ADMIN.password, captchaId: captcha.data.id, captcha: CAPTCHA }),
  });
  if (!res.ok) throw new Error(`admin login failed: ${res.status} ${await res.text()}`);
  return ((await res.json()) as { token: string }).token;
}

// ------------------------------------------------------------------ visits

interface Visit {
  path: string;
  /** JS and CSS files fetched. */
  files: number;
  js: AssetSize;
  css: AssetSize;
  /** Bytes the browser actually received for those files (its own Accept-Encoding). */
  transferred: number;
  encodings: Set<string>;
  largestLazy: { file: string; br: number } | null;
}

async function measure(url: string, token: string, entry: Set<string>): Promise<Visit[]> {
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    headless: true,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'],
  });
  const visits: Visit[] = [];
  try {
    for (const route of appRoutes) {
      // A fresh context is a fresh cache: every visit is a first one.
      const context = await browser.newContext({ baseURL: url });
      if (route.access !== 'public') {
        await context.addInitScript((t) => {
          if (!sessionStorage.getItem('token')) sessionStorage.setItem('token', t);
        }, token);
      }
      const page = await context.newPage();
      const files = new Map<string, number>();
      const encodings = new Set<string>();
      const pending: Promise<void>[] = [];
      page.on('requestfinished', (request) => {
        const path = new URL(request.url()).pathname;
        if (!path.startsWith(`${BASE}/assets/`) || !/\.(js|css)$/.test(path)) return;
        pending.push(
          Promise.all([request.sizes(), request.response()]).then(([sizes, response]) => {
            files.set(path.slice(BASE.length + 1), sizes.responseBodySize);
            encodings.add(response?.headers()['content-encoding'] ?? 'identity');
          }),
        );
      });
      await page.goto(`${BASE}${route.path}`, { waitUntil: 'networkidle' });
      // A part drawn once its data is in (an article, a chart) may fetch its chunk after a quiet moment.
      await page.waitForFunction(() => !document.querySelector('.page-loading, .ant-skeleton, .ant-spin-spinning'), null, { timeout: 15_000 });
      await page.waitForLoadState('networkidle');
      const landed = new URL(page.url()).pathname;
      if (landed !== `${BASE}${route.path}`) throw new Error(`${route.path} landed on ${landed}`);
      await Promise.all(pending);
      await context.close();

      const sizes = [...files.keys()].map((file) => ({ file, size: assetSize(join(DIST, file)) }));
      const lazy = sizes.filter((s) => s.file.endsWith('.js') && !entry.has(s.file)).sort((a, b) => b.size.br - a.size.br)[0];
      visits.push({
        path: route.path,
        files: files.size,
        js: pick(sizes, '.js'),
        css: pick(sizes, '.css'),
        transferred: [...files.values()].reduce((t, n) => t + n, 0),
        encodings,
        largestLazy: lazy ? { file: lazy.file.replace('assets/', ''), br: lazy.size.br } : null,
      });
    }
  } finally {
    await browser.close();
  }
  return visits;
}

function pick(sizes: { file: string; size: AssetSize }[], ext: string): AssetSize {
  const list = sizes.filter((s) => s.file.endsWith(ext)).map((s) => s.size);
  return { raw: sum(list, 'raw'), br: sum(list, 'br'), gz: sum(list, 'gz') };
}

// ------------------------------------------------------------------ report

function largestLazyInBuild(entry: Set<string>): { file: string; br: number } {
  const lazy = readdirSync(join(DIST, 'assets')).filter((file) => file.endsWith('.js') && !entry.has(`assets/${file}`));
  return lazy.map((file) => ({ file, br: assetSize(join(DIST, 'assets', file)).br })).sort((a, b) => b.br - a.br)[0]!;
}

async function main(): Promise<void> {
  console.log('building the web app and the server…');
  const entry = await buildWeb();
  await buildServer();
  console.log('building the floor pages…');
  const floors = {
    react: await floor(FLOORS.react.code),
    antd: await floor(FLOORS.antd.code),
    stack: await floor(FLOORS.stack.code),
  };
  const server = await startServer();
  let visits: Visit[];
  try {
    visits = await measure(server.url, await adminToken(server.url), entry);
  } finally {
    server.proc.kill('SIGTERM');
    await new Promise((r) => server.proc.once('exit', r));
    rmSync(server.dataDir, { recursive: true, force: true });
  }

  const entryJs = pick([...entry].filter((f) => f.endsWith('.js')).map((file) => ({ file, size: assetSize(join(DIST, file)) })), '.js');
  console.log(`\nFirst load per route, cold cache, compressed as served (kB = 1000 bytes; budget and pass on brotli JS).`);
  console.log(`Entry chunks (index.html): ${kb(entryJs.br)} kB br of JS on every route.\n`);
  const header = ['route', 'JS br', 'JS gzip', 'budget', '', 'floor', 'CSS br', 'files', 'largest lazy chunk (br)'];
  const rows = visits.map((v) => {
    const budget = BUDGET_KB[v.path] ?? OTHER_BUDGET_KB;
    return [
      v.path,
      kb(v.js.br),
      kb(v.js.gz),
      String(budget),
      v.js.br <= budget * KB ? 'pass' : 'FAIL',
      kb(floors.antd.br),
      kb(v.css.br),
      String(v.files),
      v.largestLazy ? `${v.largestLazy.file} ${kb(v.largestLazy.br)}` : '-',
    ];
  });
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: string[]) => cells.map((c, i) => (i === 0 || i === 8 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join('  ');
  console.log(line(header));
  for (const row of rows) console.log(line(row));

  const biggest = largestLazyInBuild(entry);
  const received = new Set(visits.flatMap((v) => [...v.encodings]));
  console.log(`\nLargest lazy chunk in the build: ${biggest.file} ${kb(biggest.br)} kB br.`);
  console.log(`The browser here was sent: ${[...received].join(', ')} (${kb(visits.find((v) => v.path === '/center')?.transferred ?? 0)} kB for /center's JS and CSS).`);
  console.log(`Floors (JS only, br / gzip):`);
  for (const key of ['react', 'antd', 'stack'] as const) {
    console.log(`  ${FLOORS[key].label.padEnd(60)} ${kb(floors[key].br).padStart(6)} / ${kb(floors[key].gz).padStart(6)} kB`);
  }
  const failed = visits.filter((v) => v.js.br > (BUDGET_KB[v.path] ?? OTHER_BUDGET_KB) * KB);
  if (check && failed.length > 0) process.exitCode = 1;
}

await main();

import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import type net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser } from '../test/accounts';
import { startFakeTron } from '../test/fake-tron';
import { HOST, basic, connectTunnel, readResponse, startHttpOrigin } from '../test/gateway-fixtures';
import { sampleOf } from '../test/prometheus-text';
import { PROXY_PASSWORD, carried, closedWithin, freePort, freePorts, until, withDeadline } from '../test/store-gateway-kit';
import { CAPTCHA, createPgDatabase } from '../test/test-app';
import { type Db, openDatabase } from './db/database';

const MB = 1024 * 1024;
const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const MAIN = path.join(ROOT, 'apps/server/src/main.ts');
const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
/** A cut-off event must close the tunnels well inside the polling window (2 s refresh + 5 s enforcement). */
const EVENT_CUT_MS = 2000;

interface Proc {
  child: ChildProcess;
  ready: Promise<void>;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** Everything it printed (pino JSON lines and stderr). */
  output(): string;
}

/** `src/main.ts --role=…` from source, as the kit's gateway process; ready once it printed `marker`. */
function spawnRole(role: 'api' | 'gateway', env: Record<string, string>, marker: string): Proc {
  const base: NodeJS.ProcessEnv = { ...process.env };
  delete base.DATABASE_URL;
  delete base.REDIS_URL;
  const child = spawn(process.execPath, ['--import', 'tsx', MAIN, `--role=${role}`], { cwd: ROOT, env: { ...base, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
  const ready = new Promise<void>((resolve, reject) => {
    child.stdout!.on('data', (c: Buffer) => {
      out += c.toString();
      if (out.includes(marker)) resolve();
    });
    child.stderr!.on('data', (c: Buffer) => (out += c.toString()));
    void exited.then((e) => reject(new Error(`--role=${role} exited before it was ready (${e.code ?? e.signal}):\n${out}`)));
  });
  ready.catch(() => undefined);
  return { child, ready, exited, output: () => out };
}

/** The pino lines a process printed, parsed (a line still being written is left out). */
const logLines = (p: Proc) =>
  p
    .output()
    .split('\n')
    .flatMap((l): Record<string, unknown>[] => {
      try {
        return l.startsWith('{') ? [JSON.parse(l) as Record<string, unknown>] : [];
      } catch {
        return [];
      }
    });

/*
 * The scaled mode of docs/deployment.md#scaled-postgresql, on loopback: `--role=api` and `--role=gateway` processes sharing one
 * PostgreSQL database and Redis, driven over real HTTP and proxy sockets. PostgreSQL only, by nature:
 * processes spread over hosts cannot share an SQLite file. The only test file that runs this mode.
 */
describe('scaled mode: an API process and two gateway processes on PostgreSQL and Redis', () => {
  let pg: Awaited<ReturnType<typeof createPgDatabase>>;
  let db: Db;
  let dataDir: string;
  let web: Awaited<ReturnType<typeof startHttpOrigin>>;
  let apiPort: number;
  let api: Proc;
  const gateways: { proc: Proc; http: number }[] = [];
  const sockets: net.Socket[] = [];
  const admin = { email: 'admin@scaled.test', password: 'AdminPass123' };

  const request = async (method: 'GET' | 'POST' | 'PUT', url: string, o: { token?: string; body?: object } = {}) => {
    const res = await fetch(`http://${HOST}:${apiPort}/api${url}`, {
      method,
      headers: { ...(o.body ? { 'content-type': 'application/json' } : {}), ...(o.token ? { authorization: `Bearer ${o.token}` } : {}) },
      body: o.body ? JSON.stringify(o.body) : undefined,
    });
    const body = (await res.json()) as { data?: any; token?: string; code?: string };
    if (res.status !== 200) throw new Error(`${method} ${url}: ${res.status} ${JSON.stringify(body)}`);
    return body;
  };
  const login = async (account: string, password: string) => {
    const captcha = await request('GET', '/captcha');
    return (await request('POST', '/login', { body: { account, password, captchaId: captcha.data.id, captcha: CAPTCHA } })).token!;
  };

  beforeAll(async () => {
    pg = await createPgDatabase();
    dataDir = mkdtempSync(path.join(tmpdir(), 'resi-scaled-'));
    web = await startHttpOrigin();
    apiPort = await freePort();
    const common = {
      NODE_ENV: 'test',
      DATABASE_URL: pg.url,
      REDIS_URL,
      // This run's own channel: other test files and runs use the same Redis at the same time.
      REDIS_PREFIX: `test:${new URL(pg.url).pathname.slice(1)}:`,
      APP_SECRET: randomBytes(32).toString('hex'),
      DATA_DIR: dataDir,
      HOST,
      PORT: String(apiPort),
      CAPTCHA_TEST_ANSWER: CAPTCHA,
      // The origin is on 127.0.0.1.
      GATEWAY_ALLOW_PRIVATE_DESTINATIONS: 'true',
      DEMO_DATA: 'off',
      LOG_LEVEL: 'info',
    };
    api = spawnRole('api', { ...common, ADMIN_EMAIL: admin.email, ADMIN_PASSWORD: admin.password }, '"msg":"console at ');
    // Started together: the migrations are safe when several processes apply them at once.
    for (let i = 0; i < 2; i++) {
      const [http, socks] = (await freePorts(2)) as [number, number];
      const proc = spawnRole('gateway', { ...common, GATEWAY_HTTP_PORT: String(http), GATEWAY_SOCKS_PORT: String(socks) }, '"msg":"gateway listening"');
      gateways.push({ proc, http });
    }
    await withDeadline(Promise.all([api.ready, ...gateways.map((g) => g.proc.ready)]), 45_000, 'the three processes to listen');
    db = openDatabase({ databaseUrl: pg.url, dataDir });
  }, 60_000);

  afterAll(async () => {
    for (const s of sockets) s.destroy();
    const procs = [api, ...gateways.map((g) => g.proc)].filter(Boolean);
    for (const p of procs) if (p.child.exitCode === null && p.child.signalCode === null) p.child.kill('SIGKILL');
    await Promise.all(procs.map((p) => p.exited));
    await db?.db.destroy();
    await pg?.drop();
    await web?.close();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  it('disabling an account through the API cuts its tunnels on both gateways at once; each byte is billed once', async () => {
    const adminToken = await login(admin.email, admin.password);
    await request('POST', '/manage/supply', { token: adminToken, body: { directEgress: true } });

    // A customer as the kit makes one: the user row in the store, everything else through the API.
    const email = `scaled-${process.pid}@example.com`;
    const user = await createUser({ db }, { email, password: 'Passw0rdOK' });
    const token = await login(email, 'Passw0rdOK');
    await request('POST', '/manage/recharge', { token: adminToken, body: { userId: user.id, bytes: 64 * MB, validityDays: 30, note: 'scaled test' } });
    const username = `scaled${user.id}`;
    const accountId = (await request('POST', '/proxy/dynamic', { token, body: { username, password: PROXY_PASSWORD } })).data.id as number;
    const auth = basic(username, PROXY_PASSWORD);
    const target = `${HOST}:${web.port}`;

    // Each gateway learns the new account and the supply at its next poll of the store (every 2 s).
    const tunnels = await Promise.all(
      gateways.map((g) =>
        until(
          async () => {
            const r = await connectTunnel(g.http, target, auth);
            if (r.status === 200) return r.socket;
            r.socket.destroy();
            return false;
          },
          15_000,
          'the gateway to accept the new account',
        ),
      ),
    );
    sockets.push(...tunnels);
    // Traffic through both, each tunnel kept open afterwards.
    for (const [i, s] of tunnels.entries()) {
      s.write(`GET /bytes/${(i + 1) * 300_000} HTTP/1.1\r\nHost: origin\r\n\r\n`);
      expect((await readResponse(s)).status).toBe(200);
    }

    const closings = tunnels.map((s) => closedWithin(s, EVENT_CUT_MS));
    await request('PUT', `/proxy/dynamic/${accountId}`, { token, body: { status: 'disabled' } });
    const closedAfter = await Promise.all(closings);
    expect(closedAfter.every((ms) => ms <= EVENT_CUT_MS), `closed after ${closedAfter.join(', ')} ms`).toBe(true);
    // Each gateway cut them on the event from the API, not at a poll.
    for (const g of gateways) {
      const cuts = () => logLines(g.proc).filter((l) => l.msg === 'gateway: account cut off' && l.accountId === accountId);
      // The log line follows the close through the child's stdout pipe.
      await until(() => cuts().length > 0, 5000, 'the cut-off log line');
      expect(cuts().map((l) => l.cause)).toEqual(['event']);
    }

    for (const g of gateways) {
      const again = await connectTunnel(g.http, target, auth);
      sockets.push(again.socket);
      expect([again.status, again.headers['x-gateway-reason']]).toEqual([403, 'ACCOUNT_DISABLED']);
    }

    // A clean stop flushes what each gateway metered; then the shared store holds every byte once.
    for (const g of gateways) g.proc.child.kill('SIGTERM');
    for (const g of gateways) expect(await withDeadline(g.proc.exited, 20_000, 'a gateway to stop'), g.proc.output()).toEqual({ code: 0, signal: null });
    const sent = tunnels.reduce((n, s) => n + carried(s), 0);
    const usage = await db.db
      .selectFrom('usage_hourly')
      .select(sql<string>`sum(bytes_up + bytes_down)`.as('total'))
      .where('account_id', '=', accountId)
      .executeTakeFirstOrThrow();
    const account = await db.db.selectFrom('proxy_accounts').select('used_bytes').where('id', '=', accountId).executeTakeFirstOrThrow();
    const grant = await db.db.selectFrom('traffic_grants').select('used_bytes').where('user_id', '=', user.id).executeTakeFirstOrThrow();
    expect([Number(usage.total), Number(account.used_bytes), Number(grant.used_bytes)]).toEqual([sent, sent, sent]);
    expect(sent).toBeGreaterThan(900_000);
  }, 60_000);
});

/*
 * Two `--role=api` processes on one store: the background jobs run once between them (lib/jobs), the
 * USDT watcher included, which polls a fake TRON API every second here.
 */
describe('scaled mode: two API processes run the USDT watcher once between them', () => {
  const POLL_MS = 1000;
  const OURS = 'TXYZopYRdj2D9XRtbG411XZZ3kM5VkAeBf';
  let pg: Awaited<ReturnType<typeof createPgDatabase>>;
  let db: Db;
  let dataDir: string;
  let tron: Awaited<ReturnType<typeof startFakeTron>>;
  const apis: { proc: Proc; port: number; metrics: number }[] = [];
  const admin = { email: 'admin@jobs.test', password: 'AdminPass123' };

  /** TRON list requests so far: the watcher asks once per poll while no transfer is listed. */
  const polls = () => tron.requests.filter((r) => r.method === 'GET' && r.url.includes('/transactions/trc20')).length;
  const watcherRuns = async (api: (typeof apis)[number]) => {
    const text = await (await fetch(`http://${HOST}:${api.metrics}/metrics`)).text();
    return sampleOf(text, 'resi_job_runs_total', { job: 'usdt_watcher', outcome: 'ok' }) ?? 0;
  };
  /** The API process whose pid the store's lease row names. */
  const holder = async () => {
    const row = await db.db.selectFrom('job_leases').select('holder').where('name', '=', 'usdt_watcher').executeTakeFirst();
    const pid = row && /:(\d+):[0-9a-f]+$/.exec(row.holder)?.[1];
    return apis.find((a) => String(a.proc.child.pid) === pid);
  };

  beforeAll(async () => {
    pg = await createPgDatabase();
    dataDir = mkdtempSync(path.join(tmpdir(), 'resi-scaled-jobs-'));
    tron = await startFakeTron();
    const common = {
      NODE_ENV: 'test',
      DATABASE_URL: pg.url,
      REDIS_URL,
      REDIS_PREFIX: `test:${new URL(pg.url).pathname.slice(1)}:`,
      APP_SECRET: randomBytes(32).toString('hex'),
      DATA_DIR: dataDir,
      HOST,
      CAPTCHA_TEST_ANSWER: CAPTCHA,
      DEMO_DATA: 'off',
      LOG_LEVEL: 'info',
      USDT_POLL_SECONDS: String(POLL_MS / 1000),
    };
    // One after the other: the first creates the admin, which the second then finds.
    for (const extra of [{ ADMIN_EMAIL: admin.email, ADMIN_PASSWORD: admin.password }, {}] as Record<string, string>[]) {
      const [port, metrics] = (await freePorts(2)) as [number, number];
      const proc = spawnRole('api', { ...common, ...extra, PORT: String(port), METRICS_PORT: String(metrics) }, '"msg":"metrics on ');
      apis.push({ proc, port, metrics });
      await withDeadline(proc.ready, 45_000, 'an API process to listen');
    }
    db = openDatabase({ databaseUrl: pg.url, dataDir });

    const api = (url: string, init: RequestInit = {}) =>
      fetch(`http://${HOST}:${apis[0]!.port}/api${url}`, { ...init, headers: { 'content-type': 'application/json', ...init.headers } }).then((r) => r.json() as Promise<any>);
    const captcha = await api('/captcha');
    const { token } = await api('/login', { method: 'POST', body: JSON.stringify({ account: admin.email, password: admin.password, captchaId: captcha.data.id, captcha: CAPTCHA }) });
    const saved = await api('/manage/pay-config', {
      method: 'POST',
      headers: { authorization: `Bearer ${token}` },
      body: JSON.stringify({ method: 'usdt-trc20', enabled: true, settings: { address: OURS, apiBase: tron.url }, secrets: {} }),
    });
    expect(saved.data?.enabled, JSON.stringify(saved)).toBe(true);
  }, 120_000);

  afterAll(async () => {
    for (const { proc } of apis) if (proc.child.exitCode === null && proc.child.signalCode === null) proc.child.kill('SIGKILL');
    await Promise.all(apis.map((a) => a.proc.exited));
    await db?.db.destroy();
    await pg?.drop();
    await tron?.close();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  it('only the lease holder polls, once per interval; when it dies the other process takes the watcher over', async () => {
    await until(() => polls() >= 2, 15_000, 'the watcher to poll the TRON API');
    const first = await until(holder, 5000, 'the lease row to name an API process');
    const other = apis.find((a) => a !== first)!;

    // Six more list requests take at least five intervals when one watcher polls (two would need half that).
    const from = polls();
    const started = Date.now();
    await until(() => polls() >= from + 6, 20_000, 'six more polls');
    const elapsed = Date.now() - started;
    expect(elapsed, `6 polls in ${elapsed} ms`).toBeGreaterThanOrEqual(5 * POLL_MS - 50);
    expect(await watcherRuns(first)).toBeGreaterThanOrEqual(6);
    expect(await watcherRuns(other)).toBe(0);

    // The holder crashes: it stops renewing, and within a few intervals the other process polls instead.
    first.proc.child.kill('SIGKILL');
    await first.proc.exited;
    const before = polls();
    await until(async () => (await watcherRuns(other)) >= 2, 20_000, 'the other process to run the watcher');
    expect(polls()).toBeGreaterThan(before);
    expect(await holder()).toBe(other);
    expect(logLines(other.proc).filter((l) => l.msg === 'job lease taken: the job runs in this process').map((l) => l.job)).toContain('usdt_watcher');
  }, 60_000);
});

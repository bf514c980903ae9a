import { type ChildProcess, execFile, spawn } from 'node:child_process';
import net from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { sql } from 'kysely';
import { call } from './auth-flows';
import { signedIn } from './commerce';
import { HOST } from './gateway-fixtures';
import { silentLog } from '../src/gateway/gateway-log';
import { type StoreGateway, type StoreGatewayOptions, startStoreGateway } from '../src/gateway/store/store-gateway';
import type { TestApp } from './test-app';

const execFileAsync = promisify(execFile);

/*
 * Kit for gateway tests against the real store: customers with traffic grants and a proxy account made
 * through the API, the store's view of what was billed, and a `--role=gateway` child process.
 */

export const PROXY_PASSWORD = 'Secret123';
let seq = 0;

/** A store-backed gateway in this process on the test app's store, free ports, local origins allowed; `o` adds or overrides. */
export function startTestGateway(t: TestApp, o: Partial<StoreGatewayOptions> = {}): Promise<StoreGateway> {
  return startStoreGateway({
    db: t.db.db,
    clock: t.clock,
    appSecret: t.config.APP_SECRET,
    host: HOST,
    httpPort: 0,
    socksPort: 0,
    allowPrivateDestinations: true,
    log: silentLog,
    ...o,
  });
}

/** Lets the gateway dial targets itself: the local origins are the "exits". */
export async function enableDirectEgress(t: TestApp, adminToken: string): Promise<void> {
  const res = await call(t.app, 'POST', '/api/manage/supply', { token: adminToken, body: { directEgress: true } });
  if (res.status !== 200) throw new Error(`supply: ${res.status} ${JSON.stringify(res.body)}`);
}

/** A customer with `grants` ([bytes, validity days], credited by the admin) and one proxy account. */
export async function gatewayCustomer(t: TestApp, adminToken: string, grants: [number, number][]) {
  const c = await signedIn(t);
  for (const [bytes, validityDays] of grants) {
    const r = await call(t.app, 'POST', '/api/manage/recharge', { token: adminToken, body: { userId: c.user.id, bytes, validityDays, note: 'gateway test' } });
    if (r.status !== 200) throw new Error(`recharge: ${r.status} ${JSON.stringify(r.body)}`);
  }
  const username = `gw${c.user.id}x${++seq}`;
  const acct = await call(t.app, 'POST', '/api/proxy/dynamic', { token: c.token, body: { username, password: PROXY_PASSWORD } });
  if (acct.status !== 200) throw new Error(`proxy account: ${acct.status} ${JSON.stringify(acct.body)}`);
  return { ...c, username, accountId: acct.body.data.id as number };
}

/** What the store billed an account: hourly usage rows, their sums, and the account's used bytes. */
export async function billed(t: TestApp, accountId: number) {
  const rows = await t.db.db
    .selectFrom('usage_hourly')
    .select(['hour', 'country', 'bytes_up', 'bytes_down'])
    .where('account_id', '=', accountId)
    .orderBy('hour')
    .execute();
  const acct = await t.db.db.selectFrom('proxy_accounts').select('used_bytes').where('id', '=', accountId).executeTakeFirstOrThrow();
  const up = rows.reduce((s, r) => s + Number(r.bytes_up), 0);
  const down = rows.reduce((s, r) => s + Number(r.bytes_down), 0);
  return { rows, up, down, total: up + down, accountUsed: Number(acct.used_bytes) };
}

/** Total of the usage rows only: one cheap query, for polling while traffic flows. */
export async function billedTotal(t: TestApp, accountId: number): Promise<number> {
  const r = await t.db.db
    .selectFrom('usage_hourly')
    .select(sql<string | number | null>`sum(bytes_up + bytes_down)`.as('total'))
    .where('account_id', '=', accountId)
    .executeTakeFirst();
  return Number(r?.total ?? 0);
}

/** The user's grants, earliest expiry first. */
export function grantsOf(t: TestApp, userId: number) {
  return t.db.db.selectFrom('traffic_grants').select(['bytes', 'used_bytes']).where('user_id', '=', userId).orderBy('expires_at').orderBy('id').execute();
}

/** Client-side bytes of a socket, both ways: what the gateway bills for it. */
export const carried = (s: net.Socket) => s.bytesRead + s.bytesWritten;

/** Resolves with how long the socket took to close, or Infinity when it is still open after `limitMs`. */
export function closedWithin(socket: net.Socket, limitMs: number): Promise<number> {
  const t0 = Date.now();
  return new Promise((resolve) => {
    if (socket.destroyed) return resolve(0);
    const timer = setTimeout(() => resolve(Infinity), limitMs);
    socket.once('close', () => {
      clearTimeout(timer);
      resolve(Date.now() - t0);
    });
    socket.resume();
  });
}

/** Polls `check` until it returns a value other than undefined/false, or throws at the deadline. */
export async function until<T>(check: () => Promise<T | undefined | false> | T | undefined | false, timeoutMs: number, what: string): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await check();
    if (v !== undefined && v !== false) return v;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** `promise`, or a rejection naming `what` once `ms` have passed. */
export function withDeadline<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`timed out after ${ms} ms waiting for ${what}`)), ms);
  });
  return Promise.race([promise, late]).finally(() => clearTimeout(timer));
}

/** Writes `rate` bytes a second in 50 ms slices until the socket closes (a paced upload). */
export function pacedUpload(socket: net.Socket, rate: number): void {
  const slice = Buffer.alloc(Math.round(rate / 20), 0x62);
  const timer = setInterval(() => {
    if (socket.destroyed || !socket.writable) return clearInterval(timer);
    if (socket.writableLength < slice.length * 4) socket.write(slice);
  }, 50);
  socket.once('close', () => clearInterval(timer));
}

/** An 8-byte byte-origin header asking it to swallow `up` bytes and answer `down` (see startByteOrigin). */
export function byteOriginHeader(up: number, down: number): Buffer {
  const header = Buffer.alloc(8);
  header.writeUInt32BE(up, 0);
  header.writeUInt32BE(down, 4);
  return header;
}

/** A TCP port that was free a moment ago (the gateway's config does not take 0). */
export async function freePort(): Promise<number> {
  return (await freePorts(1))[0]!;
}

/**
 * `n` different TCP ports that were free a moment ago. Each is held until all are found: ports taken one
 * after the other and closed at once can repeat (the kernel handed the same port twice, and a gateway refused
 * HEALTH_PORT equal to GATEWAY_HTTP_PORT in one CI run).
 */
export async function freePorts(n: number): Promise<number[]> {
  const held: net.Server[] = [];
  try {
    for (let i = 0; i < n; i++) {
      const s = net.createServer();
      await new Promise<void>((resolve, reject) => {
        s.once('error', reject);
        s.listen(0, HOST, () => resolve());
      });
      held.push(s);
    }
    return held.map((s) => (s.address() as net.AddressInfo).port);
  } finally {
    await Promise.all(held.map((s) => new Promise((done) => s.close(done))));
  }
}

// ---------------------------------------------------------------- a gateway process

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const MAIN = path.join(ROOT, 'apps/server/src/main.ts');

export interface GatewayProcess {
  child: ChildProcess;
  /** Resolves once the gateway listens; rejects when the process ends first. */
  ready: Promise<void>;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** Everything it printed (pino JSON lines and stderr), for failure messages. */
  output(): string;
}

/**
 * Runs `src/main.ts --role=gateway` from source (`node --import tsx`, so no build is needed and a
 * signal reaches the gateway process itself, not a wrapper) against the test app's store.
 */
export function spawnGateway(t: TestApp, ports: { http: number; socks: number }, o: { env?: Record<string, string>; maxOpenFiles?: number } = {}): GatewayProcess {
  const env: NodeJS.ProcessEnv = { ...process.env };
  delete env.DATABASE_URL;
  Object.assign(env, {
    NODE_ENV: 'test',
    DATA_DIR: t.config.dataDir,
    APP_SECRET: t.config.APP_SECRET,
    HOST,
    GATEWAY_HTTP_PORT: String(ports.http),
    GATEWAY_SOCKS_PORT: String(ports.socks),
    // The local origins are on 127.0.0.1.
    GATEWAY_ALLOW_PRIVATE_DESTINATIONS: 'true',
    DEMO_DATA: 'off',
    LOG_LEVEL: 'info',
    ...(t.config.DATABASE_URL ? { DATABASE_URL: t.config.DATABASE_URL } : {}),
    ...o.env,
  });
  const child = spawn(process.execPath, ['--import', 'tsx', MAIN, '--role=gateway'], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
  const listening = new Promise<void>((resolve, reject) => {
    child.stdout!.on('data', (c: Buffer) => {
      out += c.toString();
      if (out.includes('"msg":"gateway listening"')) resolve();
    });
    child.stderr!.on('data', (c: Buffer) => (out += c.toString()));
    void exited.then((e) => reject(new Error(`gateway exited before listening (${e.code ?? e.signal}):\n${out}`)));
  });
  // The descriptor limit is lowered once the gateway listens, not at its start: run from source, tsx's loader
  // opens hundreds of module files at once, and under 200 descriptors a fresh-clone run failed with EMFILE
  // before listening (the built server is one file). The gateway's default budget was taken from the limit it
  // started with, so a test of that budget sets GATEWAY_MAX_CONNECTIONS to what the low limit would give.
  const limit = o.maxOpenFiles;
  const ready = limit ? listening.then(() => execFileAsync('prlimit', ['--pid', String(child.pid), `--nofile=${limit}:${limit}`]).then(() => undefined)) : listening;
  ready.catch(() => undefined);
  return { child, ready, exited, output: () => out };
}

/** `n` consecutive free ports on loopback (a port range for port endpoints), tried from random bases. */
export async function freePortRange(n: number): Promise<[number, number]> {
  for (let attempt = 0; attempt < 50; attempt++) {
    const first = 30_000 + Math.floor(Math.random() * 25_000);
    const held: net.Server[] = [];
    let ok = true;
    for (let port = first; port < first + n && ok; port++) {
      const s = net.createServer();
      ok = await new Promise<boolean>((resolve) => {
        s.once('error', () => resolve(false));
        s.listen(port, HOST, () => resolve(true));
      });
      if (ok) held.push(s);
    }
    await Promise.all(held.map((s) => new Promise((r) => s.close(r))));
    if (ok) return [first, first + n - 1];
  }
  throw new Error(`no ${n} consecutive free ports`);
}

/** A SOCKS5 client offering only "no authentication" (method 0x00), from `localAddress`: the method the gateway chose, and the reply. */
export function socksNoAuth(port: number, host: string, targetPort: number, localAddress: string): Promise<{ socket: net.Socket; method: number; rep: number }> {
  return new Promise((resolve, reject) => {
    const socket = net.connect({ port, host: HOST, localAddress });
    socket.on('error', reject);
    let buf = Buffer.alloc(0);
    let method = -1;
    const finish = (rep: number) => {
      socket.removeAllListeners('data');
      socket.removeListener('error', reject);
      socket.on('error', () => undefined);
      socket.pause();
      if (buf.length > 0) socket.unshift(buf);
      resolve({ socket, method, rep });
    };
    socket.on('close', () => finish(-1));
    socket.on('data', (chunk: Buffer) => {
      buf = Buffer.concat([buf, chunk]);
      if (method === -1 && buf.length >= 2) {
        method = buf[1]!;
        buf = buf.subarray(2);
        if (method !== 0x00) return finish(-1);
        const octets = host.split('.').map(Number);
        socket.write(Buffer.from([0x05, 0x01, 0x00, 0x01, ...octets, targetPort >> 8, targetPort & 0xff]));
      }
      if (method === 0x00 && buf.length >= 10) {
        const rep = buf[1]!;
        buf = buf.subarray(10);
        finish(rep);
      }
    });
    socket.write(Buffer.from([0x05, 0x01, 0x00]));
  });
}

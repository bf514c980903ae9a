import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { freePort, until } from '../test/store-gateway-kit';

const root = path.resolve(import.meta.dirname, '../../..');
const main = path.join(root, 'apps/server/src/main.ts');
const HOST = '127.0.0.1';

interface ServerProcess {
  child: ChildProcess;
  port: number;
  /** Resolves once the API listens. */
  started: Promise<void>;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** What it printed on stdout while the test read it, and on stderr. */
  output(): string;
}

let dir: string;
const children: ChildProcess[] = [];
beforeAll(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'resi-stop-'));
});
afterEach(() => {
  // A process a failed test left running must not outlive the run.
  for (const child of children.splice(0)) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
});
afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

/**
 * The real server entry (`node --import tsx`, so a signal reaches the server itself, not a wrapper) on a
 * fresh SQLite store, its stdout a pipe to this test.
 */
async function startServer(name: string, env: Record<string, string> = {}): Promise<ServerProcess> {
  const port = await freePort();
  const base = { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? tmpdir(), NODE_ENV: 'test', LOG_LEVEL: 'info', HOST };
  const child = spawn(process.execPath, ['--import', 'tsx', main, '--role=api'], {
    cwd: root,
    env: { ...base, DATA_DIR: path.join(dir, name), PORT: String(port), ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  let out = '';
  child.stderr!.on('data', (c: Buffer) => (out += c.toString()));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
  const started = new Promise<void>((resolve, reject) => {
    child.stdout!.on('data', (c: Buffer) => {
      out += c.toString();
      if (out.includes('console at')) resolve();
    });
    void exited.then((e) => reject(new Error(`server exited before listening (${e.code ?? e.signal}):\n${out}`)));
  });
  started.catch(() => undefined);
  return { child, port, started, exited, output: () => out };
}

/** Resolves with how the process ended, or with `alive` once `ms` have passed. */
function endWithin(p: ServerProcess, ms: number): Promise<{ code: number | null; signal: NodeJS.Signals | null } | 'alive'> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<'alive'>((resolve) => (timer = setTimeout(() => resolve('alive'), ms)));
  return Promise.race([p.exited, late]).finally(() => clearTimeout(timer));
}

/** About `bytes` of log: one request-log line per request, each carrying a 4 KB query string. */
async function writeLog(port: number, bytes: number): Promise<void> {
  const pad = 'a'.repeat(4000);
  for (let sent = 0; sent < bytes; sent += pad.length) {
    const res = await fetch(`http://${HOST}:${port}/api/no-such-route?pad=${pad}`);
    expect(res.status).toBe(404);
    await res.arrayBuffer();
  }
}

/** A request whose body never comes: the API's close waits for it until API_REQUEST_TIMEOUT_MS. */
async function hangingRequest(port: number): Promise<net.Socket> {
  const socket = net.connect(port, HOST);
  socket.on('error', () => undefined);
  // The server's 100 Continue says it holds the request: until then the connection is idle, and a close
  // would simply end it.
  const held = new Promise<void>((resolve) => socket.on('data', (c: Buffer) => c.toString().startsWith('HTTP/1.1 100') && resolve()));
  socket.write(`POST /api/auth/login HTTP/1.1\r\nHost: ${HOST}\r\nContent-Type: application/json\r\nContent-Length: 100\r\nExpect: 100-continue\r\n\r\n{`);
  await held;
  return socket;
}

// A shutdown ends within seconds whatever holds it up: a log reader that stopped reading, a reader that
// went away, a part that does not close (docs/deployment.md#stopping).
describe('stopping the server', () => {
  it('ends within seconds of SIGTERM while nobody reads its log', async () => {
    const p = await startServer('stalled');
    await p.started;
    // The test stops reading: its stream buffers up to its high-water mark, then the pipe fills (a
    // socket pair here, a 64 KiB pipe under a shell); 1 MB of log is many times both.
    p.child.stdout!.pause();
    await writeLog(p.port, 1024 * 1024);
    p.child.kill('SIGTERM');
    const end = await endWithin(p, 8000);
    expect(end, p.output()).not.toBe('alive');
    // The log could not be flushed: the process ends as the signal would have ended it.
    expect(end).toEqual({ code: null, signal: 'SIGTERM' });
  }, 60_000);

  it('ends cleanly after its log reader went away', async () => {
    const p = await startServer('gone');
    await p.started;
    // The parent closes its end: the server's next write fails with EPIPE.
    p.child.stdout!.destroy();
    await writeLog(p.port, 64 * 1024);
    // It went on serving (the lines are dropped), and it still stops.
    await writeLog(p.port, 4000);
    p.child.kill('SIGTERM');
    expect(await endWithin(p, 8000)).toEqual({ code: 0, signal: null });
  }, 60_000);

  it('ends at once on a second SIGTERM while the first one waits', async () => {
    const p = await startServer('twice');
    await p.started;
    const socket = await hangingRequest(p.port);
    p.child.kill('SIGTERM');
    await until(() => p.output().includes('"msg":"shutting down"'), 10_000, 'the shutdown to start');
    p.child.kill('SIGTERM');
    expect(await endWithin(p, 2000)).toEqual({ code: null, signal: 'SIGTERM' });
    socket.destroy();
  }, 60_000);

  it('ends after its deadline when a part does not close', async () => {
    const p = await startServer('deadline', { API_REQUEST_TIMEOUT_MS: '120000' });
    await p.started;
    const socket = await hangingRequest(p.port);
    const signalled = Date.now();
    p.child.kill('SIGTERM');
    // The deadline is 10 s (main.ts); the request would hold the close for two minutes.
    expect(await endWithin(p, 15_000)).toEqual({ code: null, signal: 'SIGTERM' });
    expect(Date.now() - signalled).toBeGreaterThanOrEqual(9_500);
    socket.destroy();
  }, 60_000);
});

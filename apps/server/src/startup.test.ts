import { execFile, spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../test/store-gateway-kit';

const root = path.resolve(import.meta.dirname, '../../..');
const tsx = path.join(root, 'node_modules/.bin/tsx');
const main = path.join(root, 'apps/server/src/main.ts');

/** Starts the real server entry with this environment; resolves when it exits. */
function start(env: Record<string, string>): Promise<{ code: number | null; stderr: string }> {
  // Only what a process needs to run: nothing from the test's own environment that names a store.
  const base = { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? tmpdir(), NODE_ENV: 'test', LOG_LEVEL: 'silent' };
  return new Promise((resolve) => {
    const child = execFile(tsx, [main, '--role=api'], { cwd: root, env: { ...base, ...env }, timeout: 30_000, encoding: 'utf8' }, (_err, _stdout, stderr) =>
      resolve({ code: child.exitCode, stderr }),
    );
  });
}

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'resi-start-'));
});
afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

// No store is opened: the process stops while reading its configuration.
describe('starting the server with a bad environment', () => {

  it('stops with a message naming DATA_DIR when it cannot be created', async () => {
    // A regular file where a directory should be: refused even for root, unlike permissions.
    const file = path.join(dir, 'not-a-dir');
    writeFileSync(file, '');
    const res = await start({ DATA_DIR: path.join(file, 'data') });
    expect(res.code).not.toBe(0);
    expect(res.code).not.toBeNull();
    expect(res.stderr).toMatch(/^\s*DATA_DIR: .*not-a-dir\/data cannot be created or written \(ENOTDIR\)/m);
    expect(res.stderr).not.toMatch(/^\s+at /m);
  });

  it('stops with a message naming the variable for a bad value', async () => {
    const res = await start({ DATA_DIR: path.join(dir, 'data'), PORT: 'eighty' });
    expect(res.code).not.toBe(0);
    expect(res.code).not.toBeNull();
    expect(res.stderr).toMatch(/^\s*PORT: /m);
    expect(res.stderr).not.toMatch(/^\s+at /m);
  });
});

// The log is written asynchronously (ops/log-output.ts): a line must still come out at once on a quiet server,
// and what is queued when the process stops must not be lost.
describe('the server log', () => {
  it('prints its start line while idle, and its shutdown line before it exits', async () => {
    const port = await freePort();
    const env = { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? tmpdir(), NODE_ENV: 'test', LOG_LEVEL: 'info', DATA_DIR: path.join(dir, 'log'), PORT: String(port), HOST: '127.0.0.1' };
    const child = spawn(tsx, [main, '--role=api'], { cwd: root, env, stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.setEncoding('utf8');
    const started = new Promise<void>((resolve) =>
      child.stdout.on('data', (chunk: string) => {
        out += chunk;
        if (out.includes('console at')) resolve();
      }),
    );
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    await started;
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
    const lines = out.split('\n').filter((l) => l.startsWith('{')).map((l) => JSON.parse(l) as { msg: string });
    expect(lines.map((l) => l.msg)).toContain('shutting down');
  }, 30_000);
});

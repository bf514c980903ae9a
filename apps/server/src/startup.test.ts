import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

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

// No store is opened: the process stops while reading its configuration.
describe('starting the server with a bad environment', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'resi-start-'));
  });
  afterAll(() => {
    rmSync(dir, { recursive: true, force: true });
  });

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

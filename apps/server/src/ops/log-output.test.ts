import { execFileSync } from 'node:child_process';
import { closeSync, constants, mkdtempSync, openSync, readSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { until } from '../../test/store-gateway-kit';
import { type LogOutput, createLogOutput } from './log-output';
import { createMetrics } from './metrics';

const KB = 1024;
const LINE = 'x'.repeat(KB - 1) + '\n';

let dir: string;
let fifos = 0;
beforeAll(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'resi-log-'));
});
afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

/** A named pipe (64 KiB) whose reader reads only when told; both ends non-blocking, as libuv opens stdout. */
function pipe(): { reader: number; writer: number } {
  const file = path.join(dir, `fifo-${fifos++}`);
  execFileSync('mkfifo', [file]);
  const reader = openSync(file, constants.O_RDONLY | constants.O_NONBLOCK);
  const writer = openSync(file, constants.O_WRONLY | constants.O_NONBLOCK);
  return { reader, writer };
}

/** Reads what the pipe holds: how many bytes, and whether its writer has closed it (end of file). */
function readAll(reader: number): { bytes: number; closed: boolean } {
  const buf = Buffer.alloc(64 * KB);
  let bytes = 0;
  for (;;) {
    try {
      const n = readSync(reader, buf);
      if (n === 0) return { bytes, closed: true };
      bytes += n;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'EAGAIN') return { bytes, closed: false };
      throw err;
    }
  }
}

/** Finishes the output and reads until it has closed its end (sonic-boom closes the descriptor). */
async function close(out: LogOutput, reader: number): Promise<void> {
  void out.finish(5000);
  await until(() => readAll(reader).closed, 5000, 'the output to close');
  closeSync(reader);
}

describe('the log output', () => {
  it('drops and counts the lines beyond its buffer while the reader sleeps, and says so once it reads again', async () => {
    const { reader, writer } = pipe();
    const caughtUp: number[] = [];
    const out = createLogOutput({ fd: writer, maxBufferBytes: 128 * KB, onCaughtUp: (n) => caughtUp.push(n) });
    for (let i = 0; i < 1000; i++) out.write(LINE);
    // 128 KB held (the line being written among them), not 1 MB: half in the pipe, half waiting.
    expect(out.dropped()).toBe(1000 - 128);
    // Nothing to wait for but time: the notice must not come while the reader sleeps.
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(caughtUp).toEqual([]);

    let read = 0;
    await until(() => ((read += readAll(reader).bytes), caughtUp.length > 0), 5000, 'the reader to catch up');
    expect(caughtUp).toEqual([1000 - 128]);
    expect(read).toBe(128 * KB);
    // Lines flow again.
    expect(out.write(LINE)).toBe(true);
    expect(out.dropped()).toBe(1000 - 128);
    await close(out, reader);
  });

  it('gives up on a reader that sleeps through its finish, within the time it is given', async () => {
    const { reader, writer } = pipe();
    const out = createLogOutput({ fd: writer, maxBufferBytes: 256 * KB });
    for (let i = 0; i < 200; i++) out.write(LINE);
    const started = Date.now();
    expect(await out.finish(300)).toBe(false);
    expect(Date.now() - started).toBeLessThan(2000);
    // Lines after the finish are dropped and counted.
    out.write(LINE);
    expect(out.dropped()).toBe(1);
    await close(out, reader);
  });

  it('ends when its reader goes away (EPIPE): later lines are counted, the finish is immediate', async () => {
    const { reader, writer } = pipe();
    const out = createLogOutput({ fd: writer, maxBufferBytes: 64 * KB });
    closeSync(reader);
    out.write(LINE);
    await until(() => (out.write(LINE), out.dropped() > 0), 5000, 'the output to end');
    const started = Date.now();
    expect(await out.finish(5000)).toBe(true);
    expect(Date.now() - started).toBeLessThan(1000);
  });

  it('reports what it dropped as a metric', async () => {
    const metrics = createMetrics({ logLinesDropped: () => 7 });
    expect(await metrics.registry.metrics()).toMatch(/^resi_log_lines_dropped_total 7$/m);
  });
});

import { fstatSync } from 'node:fs';
import SonicBoom from 'sonic-boom';

/**
 * Where the process's log lines go (docs/deployment.md#the-log): written asynchronously, so a busy API
 * makes one write per batch of lines rather than one blocking write per request (docs/architecture.md),
 * with a bounded buffer. A reader that stops reading (a stalled log shipper, a parent that no longer
 * reads its pipe) neither grows the process's memory nor blocks it: lines beyond the buffer are dropped
 * and counted. A reader that went away (EPIPE) or any other write error ends the output: later lines are
 * dropped and counted too.
 */
export interface LogOutput {
  /** pino's destination: takes one serialized line. */
  write(line: string): boolean;
  /** Lines dropped so far. */
  dropped(): number;
  /**
   * Writes what is buffered and ends the output, waiting at most `ms`; true when everything was written
   * (or the output had already ended). Never a synchronous write: a full pipe must not block the exit.
   */
  finish(ms: number): Promise<boolean>;
}

export interface LogOutputOptions {
  fd: number;
  /** The most bytes waiting to be written; a line that would pass it is dropped. */
  maxBufferBytes: number;
  /** Lines were dropped and the reader has caught up again: how many since the last call. */
  onCaughtUp?: (dropped: number) => void;
}

export function createLogOutput(o: LogOutputOptions): LogOutput {
  makeNonBlocking(o.fd);
  // Made directly, not through pino.destination(): that one also registers a synchronous flush at exit,
  // which retries a full pipe every 100 ms for ever (the hang of a server whose parent stopped reading).
  let exiting = false;
  const sonic = new SonicBoom({ fd: o.fd, sync: false, maxLength: o.maxBufferBytes, retryEAGAIN: () => !exiting });
  // A crash exits without the shutdown's finish(): one synchronous try at what is buffered, given up at
  // the first write a full pipe refuses.
  process.once('exit', () => {
    exiting = true;
    if (ended) return;
    try {
      sonic.flushSync();
    } catch {
      // The pipe is full or gone: those lines are lost.
    }
  });
  let dropped = 0;
  let reported = 0;
  let ended = false;
  sonic.on('drop', () => dropped++);
  sonic.on('error', () => {
    ended = true;
    sonic.destroy();
  });
  sonic.on('drain', () => {
    if (dropped === reported || !o.onCaughtUp) return;
    const since = dropped - reported;
    reported = dropped;
    o.onCaughtUp(since);
  });
  let finished: Promise<boolean> | undefined;
  return {
    write(line) {
      if (ended) {
        dropped++;
        return true;
      }
      return sonic.write(line);
    },
    dropped: () => dropped,
    finish(ms) {
      if (finished) return finished;
      if (ended) return (finished = Promise.resolve(true));
      ended = true;
      finished = new Promise<boolean>((resolve) => {
        const timer = setTimeout(() => resolve(false), ms);
        // 'close' comes once what was buffered is written, or at once when an error ends the output.
        sonic.once('close', () => {
          clearTimeout(timer);
          resolve(true);
        });
        sonic.end();
      });
      return finished;
    },
  };
}

/**
 * libuv opens a pipe or socket in non-blocking mode, and process.stdout opens fd 1 that way. A write to a
 * reader that stopped then fails with EAGAIN, which sonic-boom retries on a timer, instead of holding a
 * thread of the pool in write(2) for as long as the reader sleeps: a thread the process's exit would
 * wait for, for ever. A file or a terminal is left as it is (their writes end).
 */
function makeNonBlocking(fd: number): void {
  const stat = fstatSync(fd);
  if (fd === 1 && (stat.isFIFO() || stat.isSocket())) void process.stdout;
}

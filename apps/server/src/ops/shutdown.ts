import type { LogOutput } from './log-output';

const SIGNALS = ['SIGINT', 'SIGTERM'] as const;

export interface ShutdownOptions {
  /** Closes the process's parts, in order. */
  stop: () => Promise<void>;
  log: { info(obj: object, msg: string): void; error(obj: object, msg: string): void };
  output: LogOutput;
  /** The whole shutdown, from the signal to the process's end. */
  deadlineMs: number;
  /** The part of it the log gets, once the parts are closed, to write what it holds. */
  logFlushMs: number;
}

/**
 * Stops the process on SIGINT or SIGTERM (docs/deployment.md#stopping), and always within `deadlineMs`:
 * the parts close, the log is written out, and the process exits 0. Whatever cannot finish in time (a
 * part that does not close, a log nobody reads) is left, and the process ends as the signal would have
 * ended it, by re-raising it. A second signal does so at once.
 */
export function stopOnSignals(o: ShutdownOptions): void {
  const onSignal = (signal: NodeJS.Signals) => {
    // With no listener left the signals' default action applies again, in the kernel: a second signal
    // ends the process even while its main thread waits in a system call or its exit.
    for (const s of SIGNALS) process.removeAllListeners(s);
    o.log.info({ signal }, 'shutting down');
    const end = () => process.kill(process.pid, signal);
    const deadline = Date.now() + o.deadlineMs;
    setTimeout(end, o.deadlineMs);
    const flushLog = () => o.output.finish(Math.max(0, Math.min(o.logFlushMs, deadline - Date.now())));
    void o.stop().then(
      async () => {
        // Exiting while a write is under way would wait for it: only once the log is out.
        if (await flushLog()) process.exit(0);
        end();
      },
      async (err: unknown) => {
        o.log.error({ err }, 'shutdown failed');
        if (await flushLog()) process.exit(1);
        end();
      },
    );
  };
  for (const s of SIGNALS) process.once(s, onSignal);
}

import type { FastifyInstance } from 'fastify';
import { type JobRuns, untrackedJobs } from '../lib/job-runs';
import type { UsdtWatcher } from './usdt-watcher';

/** Runs the USDT watcher every `everyMs` while the API runs; a failed poll is logged and retried next time. */
export function scheduleUsdtWatcher(app: FastifyInstance, watcher: UsdtWatcher, everyMs: number, jobs: JobRuns = untrackedJobs): void {
  let timer: NodeJS.Timeout | undefined;
  let running = false;
  app.addHook('onReady', async () => {
    timer = setInterval(() => {
      // One poll at a time per process: a slow API must not pile up requests.
      if (running) return;
      running = true;
      jobs
        .track('usdt_watcher', () => watcher.pollOnce())
        .catch((err: unknown) => app.log.warn({ err: String(err) }, 'USDT watcher: poll failed'))
        .finally(() => (running = false));
    }, everyMs);
    timer.unref();
  });
  app.addHook('onClose', async () => clearInterval(timer));
}

import { Counter, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import type { JobRuns } from '../lib/jobs/job-runs';

/**
 * The process's Prometheus metrics (docs/deployment.md, "Metrics"): one registry per process, served only
 * on METRICS_PORT (ops-listener.ts). prom-client's default metrics come with it, among them
 * `process_open_fds` and `process_max_fds` (descriptors in use and allowed, read from /proc at each
 * scrape), which the gateway's connection budget is a fifth of.
 */
export interface Metrics {
  readonly registry: Registry;
  /** Runs and failures of the background jobs, by job name. */
  readonly jobs: JobRuns;
  /** An API request was answered. `route` is the route's pattern (`/api/orders/:id`), never the URL. */
  requestAnswered(method: string, route: string, status: number, seconds: number): void;
}

export interface MetricsOptions {
  /** The log lines dropped so far (ops/log-output.ts), read at each scrape. */
  logLinesDropped?: () => number;
}

export function createMetrics(o: MetricsOptions = {}): Metrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const logLinesDropped = o.logLinesDropped;
  if (logLinesDropped) {
    new Counter({
      name: 'resi_log_lines_dropped_total',
      help: 'Log lines dropped because stdout was not read fast enough (the buffer was full) or its reader went away.',
      registers: [registry],
      collect() {
        this.reset();
        this.inc(logLinesDropped());
      },
    });
  }
  const requests = new Histogram({
    name: 'resi_http_request_duration_seconds',
    help: 'API requests by method, route pattern and status: time from the request to the last byte of the answer.',
    labelNames: ['method', 'route', 'status_code'] as const,
    registers: [registry],
  });
  return {
    registry,
    jobs: jobMeters(registry),
    requestAnswered: (method, route, status, seconds) => requests.observe({ method, route, status_code: status }, seconds),
  };
}

function jobMeters(registry: Registry): JobRuns {
  const runs = new Counter({
    name: 'resi_job_runs_total',
    help: 'Background job runs by job and outcome (ok, failed).',
    labelNames: ['job', 'outcome'] as const,
    registers: [registry],
  });
  const durations = new Histogram({
    name: 'resi_job_duration_seconds',
    help: 'How long each background job run took, failed ones included.',
    labelNames: ['job'] as const,
    registers: [registry],
  });
  return {
    async track(job, run) {
      const end = durations.startTimer({ job });
      try {
        const result = await run();
        runs.inc({ job, outcome: 'ok' });
        return result;
      } catch (err) {
        runs.inc({ job, outcome: 'failed' });
        throw err;
      } finally {
        end();
      }
    },
  };
}

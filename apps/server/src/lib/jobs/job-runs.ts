/**
 * Where background jobs report each run (order expiry, the USDT watcher, the gateway's jobs to come):
 * a job wraps its work in `track`, which passes the result or error through unchanged. The metrics
 * listener (ops/metrics.ts) counts runs and failures by job name; without it nothing is counted.
 */
export interface JobRuns {
  track<T>(job: string, run: () => Promise<T>): Promise<T>;
}

export const untrackedJobs: JobRuns = { track: (_job, run) => run() };

import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import type { Clock } from '../clock';
import { type JobRuns, untrackedJobs } from './job-runs';
import type { LeaseRepository } from './lease-repository';

/** A background job: what to run and how often. Modules add theirs in their plugin (docs/architecture.md). */
export interface Job {
  /** Also the name of its lease and the `job` label of its metrics. */
  name: string;
  everyMs: number;
  run(): Promise<unknown>;
}

/**
 * A lease outlives this many ticks: a holder that misses two renewals in a row (crashed, hung, cut off
 * from the store) is taken to be gone, and the next process to tick takes the job over.
 */
export const LEASE_TICKS = 3;

interface JobState {
  job: Job;
  timer?: NodeJS.Timeout;
  /** A lease query still out (a slow store): the next tick does not pile another one on. */
  asking: Promise<void> | null;
  held: boolean;
  running: Promise<void> | null;
}

export interface JobSchedulerOptions {
  leases: LeaseRepository;
  clock: Clock;
  /** Where runs are reported (the metrics); default: nowhere. */
  runs?: JobRuns;
  log: { info(obj: object, msg: string): void; warn(obj: object, msg: string): void };
  /** This process's name on its leases; default: host, pid and a random part. */
  holder?: string;
}

/**
 * Runs every background job of the API once across all API processes. On each tick of a job, every
 * process tries to take or renew the job's lease in the store; only the one holding it runs the job,
 * one run at a time (a run longer than the interval keeps its lease, the ticks renew it). A process that
 * stops renewing loses the job to another after `LEASE_TICKS` intervals; one that stops cleanly hands
 * it over at once. The jobs themselves stay safe to run twice (a conditional update, a payment recorded
 * once per transaction), since a holder cut off from the store may still be finishing a run.
 */
export class JobScheduler {
  readonly holder: string;
  private readonly states: JobState[] = [];
  private started = false;
  private stopped = false;

  constructor(private readonly o: JobSchedulerOptions) {
    this.holder = o.holder ?? `${hostname()}:${process.pid}:${randomBytes(4).toString('hex')}`;
  }

  add(job: Job): void {
    if (this.started) throw new Error(`job ${job.name} added after the scheduler started`);
    if (this.states.some((s) => s.job.name === job.name)) throw new Error(`job ${job.name} added twice`);
    this.states.push({ job, asking: null, held: false, running: null });
  }

  /** Every job ticks from now on; the first tick comes one interval after the start. */
  start(): void {
    if (this.started) return;
    this.started = true;
    for (const state of this.states) {
      state.timer = setInterval(() => void this.tick(state), state.job.everyMs);
      state.timer.unref();
    }
  }

  /** Stops the ticks, waits for runs under way and gives up the leases held, so another process takes over at once. */
  async stop(): Promise<void> {
    this.stopped = true;
    for (const state of this.states) clearInterval(state.timer);
    // A lease answer still on its way would otherwise mark the lease held after it was given up.
    await Promise.all(this.states.flatMap((s) => [s.asking, s.running]));
    for (const state of this.states.filter((s) => s.held)) {
      state.held = false;
      await this.o.leases.release(state.job.name, this.holder).catch((err: unknown) => this.o.log.warn({ err: String(err), job: state.job.name }, 'job lease not released'));
    }
  }

  /** One tick of the job `name` now, as its timer would do it, and the run it starts if it starts one (tests). */
  async tickNow(name: string): Promise<void> {
    const state = this.states.find((s) => s.job.name === name);
    if (!state) throw new Error(`no job ${name}`);
    const before = state.running;
    await this.tick(state);
    if (state.running !== before) await state.running;
  }

  private async tick(state: JobState): Promise<void> {
    if (state.asking || this.stopped) return;
    state.asking = this.renew(state);
    await state.asking;
    state.asking = null;
    if (!state.held || state.running || this.stopped) return;
    const { job } = state;
    state.running = (this.o.runs ?? untrackedJobs)
      .track(job.name, () => job.run())
      .then(
        () => undefined,
        (err: unknown) => this.o.log.warn({ err: String(err), job: job.name }, 'job run failed'),
      )
      .finally(() => (state.running = null));
  }

  private async renew(state: JobState): Promise<void> {
    const job = state.job.name;
    const had = state.held;
    try {
      state.held = await this.o.leases.hold(job, this.holder, this.o.clock.now(), state.job.everyMs * LEASE_TICKS);
      // Operators see where each job runs, and when it moves.
      if (state.held && !had) this.o.log.info({ job, holder: this.holder }, 'job lease taken: the job runs in this process');
      if (had && !state.held) this.o.log.warn({ job, holder: this.holder }, 'job lease lost to another process');
    } catch (err) {
      // Without the store the lease cannot be renewed: another process may take the job over meanwhile.
      state.held = false;
      this.o.log.warn({ err: String(err), job }, 'job lease not renewed');
    }
  }
}

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../../../test/test-app';
import { TestClock } from '../../../test/test-clock';
import { twoStores } from '../../../test/two-stores';
import { JobScheduler, LEASE_TICKS } from './job-scheduler';
import type { JobRuns } from './job-runs';
import { LeaseRepository } from './lease-repository';

const EVERY = 1000;

/** A job that counts its runs; `block` keeps the next run going until `unblock()`. */
function countingJob(name: string) {
  const job = {
    name,
    everyMs: EVERY,
    runs: 0,
    gate: null as null | { promise: Promise<void>; open: () => void },
    block() {
      let open!: () => void;
      job.gate = { promise: new Promise<void>((r) => (open = r)), open };
    },
    unblock() {
      job.gate?.open();
      job.gate = null;
    },
    async run() {
      job.runs += 1;
      await job.gate?.promise;
    },
  };
  return job;
}

/* Two API processes on one store, each with its own scheduler and the same job; ticks are driven by hand. */
describe.each(DIALECTS)('job scheduler on %s', (dialect) => {
  let stores: Awaited<ReturnType<typeof twoStores>>;
  const warnings: string[] = [];
  const log = { info: () => undefined, warn: (_o: object, msg: string) => void warnings.push(msg) };
  let n = 0;
  beforeAll(async () => {
    stores = await twoStores(dialect);
  });
  afterAll(() => stores?.close());

  function pair(clock: TestClock, runs?: JobRuns) {
    const name = `job-${++n}`;
    const jobs = [countingJob(name), countingJob(name)] as const;
    const schedulers = [stores.a, stores.b].map((s, i) => new JobScheduler({ leases: new LeaseRepository(s.db), clock, log, runs, holder: `process-${i}` }));
    schedulers.forEach((s, i) => s.add(jobs[i]!));
    return { name, jobs, schedulers: schedulers as [JobScheduler, JobScheduler] };
  }

  it('runs a job in one process only, and the other takes over once the holder stops renewing', async () => {
    const clock = new TestClock();
    const { name, jobs, schedulers: [one, two] } = pair(clock);
    for (let tick = 0; tick < 5; tick++) {
      await one.tickNow(name);
      await two.tickNow(name);
      clock.advance(EVERY);
    }
    expect(jobs.map((j) => j.runs)).toEqual([5, 0]);

    // The first process goes silent (crashed): its lease lives LEASE_TICKS intervals from its last renewal.
    clock.advance((LEASE_TICKS - 2) * EVERY);
    await two.tickNow(name);
    expect(jobs[1].runs).toBe(0);
    clock.advance(EVERY);
    await two.tickNow(name);
    expect(jobs[1].runs).toBe(1);
    // Back again, the first finds the job taken.
    await one.tickNow(name);
    expect(jobs.map((j) => j.runs)).toEqual([5, 1]);
  });

  it('a run longer than the interval keeps its lease and is not started twice', async () => {
    const clock = new TestClock();
    const { name, jobs, schedulers: [one, two] } = pair(clock);
    jobs[0].block();
    const first = one.tickNow(name);
    await expect.poll(() => jobs[0].runs).toBe(1);
    for (let tick = 0; tick < 2 * LEASE_TICKS; tick++) {
      clock.advance(EVERY);
      // The ticks while it runs renew the lease without starting another run.
      await one.tickNow(name);
      await two.tickNow(name);
      expect(jobs.map((j) => j.runs)).toEqual([1, 0]);
    }
    jobs[0].unblock();
    await first;
    clock.advance(EVERY);
    await one.tickNow(name);
    expect(jobs.map((j) => j.runs)).toEqual([2, 0]);
  });

  it('hands its jobs over at once when it stops', async () => {
    const clock = new TestClock();
    const { name, jobs, schedulers: [one, two] } = pair(clock);
    await one.tickNow(name);
    await two.tickNow(name);
    await one.stop();
    await two.tickNow(name);
    expect(jobs.map((j) => j.runs)).toEqual([1, 1]);
    // A stopped scheduler neither takes nor runs anything.
    await one.tickNow(name);
    expect(jobs[0].runs).toBe(1);
  });

  it('reports each run through JobRuns; a failed run is logged and the next tick runs again', async () => {
    const clock = new TestClock();
    const reported: string[] = [];
    const runs: JobRuns = {
      track: (job, run) =>
        run().then(
          (v) => (reported.push(`${job}:ok`), v),
          (err: unknown) => {
            reported.push(`${job}:failed`);
            throw err;
          },
        ),
    };
    const { name, jobs, schedulers: [one] } = pair(clock, runs);
    const ok = jobs[0].run;
    jobs[0].run = async () => {
      jobs[0].runs += 1;
      throw new Error('TRON API answered 503');
    };
    await one.tickNow(name);
    expect(warnings).toContain('job run failed');
    jobs[0].run = ok;
    clock.advance(EVERY);
    await one.tickNow(name);
    expect(reported).toEqual([`${name}:failed`, `${name}:ok`]);
    expect(jobs[0].runs).toBe(2);
  });
});

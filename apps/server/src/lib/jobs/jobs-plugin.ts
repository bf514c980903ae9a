import type { Kysely } from 'kysely';
import fp from 'fastify-plugin';
import type { Database } from '../../db/schema';
import type { Clock } from '../clock';
import { JobScheduler } from './job-scheduler';
import type { JobRuns } from './job-runs';
import { LeaseRepository } from './lease-repository';

declare module 'fastify' {
  interface FastifyInstance {
    /** The API's background jobs: a module adds its own in its plugin; they start when the app is ready. */
    jobs: JobScheduler;
  }
}

export interface JobsPluginOptions {
  db: Kysely<Database>;
  clock: Clock;
  /** Where runs are reported (ops/metrics.ts with METRICS_PORT). */
  runs?: JobRuns;
  /** This process's name on its leases (tests that run two schedulers in one process). */
  holder?: string;
}

/** The scheduler on the app itself, so every module plugin can add its jobs; started on ready, stopped on close. */
export const jobsPlugin = fp<JobsPluginOptions>(
  async (app, { db, clock, runs, holder }) => {
    const scheduler = new JobScheduler({ leases: new LeaseRepository(db), clock, runs, log: app.log, holder });
    app.decorate('jobs', scheduler);
    app.addHook('onReady', async () => scheduler.start());
    app.addHook('onClose', () => scheduler.stop());
  },
  { name: 'jobs' },
);

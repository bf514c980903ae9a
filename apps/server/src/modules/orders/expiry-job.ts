import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema';
import { type Clock, iso } from '../../lib/clock';
import { type JobRuns, untrackedJobs } from '../../lib/job-runs';
import { OrderRepository } from './order-repository';

const EVERY_MS = 30_000;

/**
 * Expires unpaid orders every 30 s. Every API process runs it; the conditional update makes the
 * second runner a no-op, so no leader election is needed.
 */
export function scheduleOrderExpiry(app: FastifyInstance, db: Kysely<Database>, clock: Clock, jobs: JobRuns = untrackedJobs): void {
  let timer: NodeJS.Timeout | undefined;
  app.addHook('onReady', async () => {
    timer = setInterval(() => {
      jobs.track('order_expiry', () => expireDueOrders(db, clock)).catch((err: unknown) => app.log.error({ err }, 'order expiry failed'));
    }, EVERY_MS);
    timer.unref();
  });
  app.addHook('onClose', async () => clearInterval(timer));
}

/** Unpaid orders past their time (or just the order `onlyId`) marked expired; answers how many. */
export function expireDueOrders(db: Kysely<Database>, clock: Clock, onlyId?: number): Promise<number> {
  return new OrderRepository(db).expireDue(iso(clock.now()), onlyId);
}

import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema';
import { type Clock, iso } from '../../lib/clock';
import type { Job } from '../../lib/jobs/job-scheduler';
import { OrderRepository } from './order-repository';

/**
 * Expires unpaid orders every 30 s, in the one API process holding the job's lease. The conditional
 * update would make a second runner a no-op anyway.
 */
export const orderExpiryJob = (db: Kysely<Database>, clock: Clock): Job => ({ name: 'order_expiry', everyMs: 30_000, run: () => expireDueOrders(db, clock) });

/** Unpaid orders past their time (or just the order `onlyId`) marked expired; answers how many. */
export function expireDueOrders(db: Kysely<Database>, clock: Clock, onlyId?: number): Promise<number> {
  return new OrderRepository(db).expireDue(iso(clock.now()), onlyId);
}

import type { Transaction } from 'kysely';
import type { Database } from '../../db/schema';
import { AppError } from '../../shared/errors';
import type { StaticInventoryRepository } from './inventory-repository';

/** How much stock one customer's unpaid orders may hold (STATIC_UNPAID_MAX_IPS, STATIC_UNPAID_MAX_SHARE). */
export interface UnpaidStaticLimits {
  maxIps: number;
  /** Percent of what is available in a region and line, counted as if this customer held none of it. */
  maxSharePercent: number;
}

/**
 * Refuses a purchase whose reservation lets the customer's unpaid orders hold more than the limits
 * (docs/business-rules.md#static-residential-ips): an unpaid order costs nothing, so without them one
 * account could keep a region's stock from every paying buyer, again at each expiry.
 *
 * Call it in the order's transaction, right after its reservation (which then counts as held, and
 * throwing rolls it back): OrderService.openOrder has locked the customer's row there on PostgreSQL, so
 * a second purchase of theirs waits and counts this one's rows; SQLite runs one writing transaction at a
 * time. Counting after the pick leaves a lack of stock to the pick's OUT_OF_STOCK.
 */
export async function assertMayHoldUnpaid(
  inventory: StaticInventoryRepository,
  limits: UnpaidStaticLimits,
  q: { userId: number; regionId: number; businessId: number; quantity: number; now: string },
  trx: Transaction<Database>,
): Promise<void> {
  const held = await inventory.unpaidHolds(q, trx);
  if (held.total > limits.maxIps) throw new AppError('STATIC_UNPAID_LIMIT', { max: limits.maxIps, held: held.total - q.quantity });
  // Of what would be available if this customer held none of it; rounded up, so the last IP can be bought.
  const share = Math.ceil(((held.available + held.here) * limits.maxSharePercent) / 100);
  if (held.here > share) throw new AppError('STATIC_UNPAID_SHARE', { max: share });
}

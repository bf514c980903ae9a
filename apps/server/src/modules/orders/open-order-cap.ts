import { type Kysely, PostgresAdapter } from 'kysely';
import type { Database } from '../../db/schema';
import { AppError } from '../../shared/errors';

/**
 * Unpaid orders one customer may hold at once. Each open USDT order holds one of the 9,999 unique amounts
 * of its price, so without a cap one customer could hold them all and stop USDT checkout for everyone.
 */
export const MAX_OPEN_ORDERS = 5;

/**
 * Refuses a new order when the user already has MAX_OPEN_ORDERS open ones. Call it in the transaction that
 * inserts the order: on PostgreSQL it locks the user's row, so a second buy of the same user waits for the
 * first to commit and then counts its order; on SQLite Kysely runs one transaction at a time on its single
 * connection, so the count and the insert are alone already.
 */
export async function assertMayOpenOrder(trx: Kysely<Database>, userId: number, now: string): Promise<void> {
  if (trx.getExecutor().adapter instanceof PostgresAdapter) {
    await trx.selectFrom('users').select('id').where('id', '=', userId).forUpdate().execute();
  }
  const { n } = await trx
    .selectFrom('orders')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('user_id', '=', userId)
    .where('status', '=', 'pending')
    // One past its time is not open any more, even before the expiry job has marked it.
    .where('expires_at', '>', now)
    .executeTakeFirstOrThrow();
  if (Number(n) >= MAX_OPEN_ORDERS) throw new AppError('ORDER_OPEN_LIMIT', { max: MAX_OPEN_ORDERS });
}

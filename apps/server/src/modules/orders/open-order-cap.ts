import type { Transaction } from 'kysely';
import type { Database } from '../../db/schema';
import { AppError } from '../../shared/errors';
import type { OrderRepository } from './order-repository';

/**
 * Unpaid orders one customer may hold at once. Each open USDT order holds one of the 9,999 unique amounts
 * of its price, so without a cap one customer could hold them all and stop USDT checkout for everyone.
 */
export const MAX_OPEN_ORDERS = 5;

/**
 * Refuses a new order when the user already has MAX_OPEN_ORDERS open ones. Call it in the transaction that
 * inserts the order: the count locks the user on PostgreSQL (OrderRepository.countOpenLocked), so two buys
 * of one user cannot both pass it.
 */
export async function assertMayOpenOrder(orders: OrderRepository, userId: number, now: string, trx: Transaction<Database>): Promise<void> {
  if ((await orders.countOpenLocked(userId, now, trx)) >= MAX_OPEN_ORDERS) throw new AppError('ORDER_OPEN_LIMIT', { max: MAX_OPEN_ORDERS });
}

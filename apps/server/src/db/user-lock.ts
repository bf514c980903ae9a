import { type Kysely, PostgresAdapter, type Transaction } from 'kysely';
import type { Database } from './schema';

/**
 * Runs `work` in a transaction that holds the user's row: on PostgreSQL a `select … for update` of it, so two
 * requests of one user (a count under a cap, then an insert) run one after the other; SQLite writes one
 * transaction at a time already.
 */
export function inUserTransaction<T>(db: Kysely<Database>, userId: number, work: (trx: Transaction<Database>) => Promise<T>): Promise<T> {
  return db.transaction().execute(async (trx) => {
    if (trx.getExecutor().adapter instanceof PostgresAdapter) await trx.selectFrom('users').select('id').where('id', '=', userId).forUpdate().execute();
    return work(trx);
  });
}

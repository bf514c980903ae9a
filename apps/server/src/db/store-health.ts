import { type Kysely, sql } from 'kysely';
import type { Database } from './schema';

/** The cheapest round trip the store answers: a connection taken from the pool and one query. */
export async function pingStore(db: Kysely<Database>): Promise<void> {
  await sql`select 1`.execute(db);
}

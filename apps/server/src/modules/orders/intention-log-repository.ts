import type { Insertable, Kysely } from 'kysely';
import type { Database, IntentionLogTable } from '../../db/schema';

/** What customers were about to buy when they opened a checkout (for the operator's funnel). */
export class IntentionLogRepository {
  constructor(private readonly db: Kysely<Database>) {}

  async add(row: Insertable<IntentionLogTable>): Promise<void> {
    await this.db.insertInto('intention_logs').values(row).execute();
  }
}

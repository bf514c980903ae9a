import { type Kysely, sql } from 'kysely';

// Frozen in time: never import app code here; valid on SQLite and PostgreSQL alike.

/**
 * "One live code per email and purpose" (docs/business-rules.md#registration-and-mail-codes) held by the store, not only by the service's
 * check-then-insert: two sends racing past the check cannot both leave a code. Both dialects support
 * partial unique indexes.
 */
export async function up(db: Kysely<any>): Promise<void> {
  // Rows from before the index: keep only the newest unconsumed code of each email and purpose.
  await sql`
    update mail_codes set consumed_at = created_at
    where consumed_at is null
      and id not in (select max(id) from mail_codes where consumed_at is null group by email, purpose)
  `.execute(db);
  await db.schema
    .createIndex('mail_codes_live_idx')
    .on('mail_codes')
    .columns(['email', 'purpose'])
    .unique()
    .where(sql.ref('consumed_at'), 'is', null)
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('mail_codes_live_idx').execute();
}

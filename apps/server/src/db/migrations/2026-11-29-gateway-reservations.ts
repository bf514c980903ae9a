import type { Kysely } from 'kysely';

// Frozen in time: never import app code here; valid on SQLite and PostgreSQL alike.

/**
 * Shared byte budgets (docs/gateway.md): what each gateway process holds of a user's balance or an
 * account's cap — bytes reserved and not yet billed by one of its usage batches. Every process reserves
 * only what the store's figure minus every live row leaves, so k processes together never carry more
 * than the budget. A row stops counting at `expires_at` (a process that died holds nothing).
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('gateway_reservations')
    .addColumn('gateway_id', 'varchar(64)', (c) => c.notNull())
    .addColumn('kind', 'varchar(8)', (c) => c.notNull())
    .addColumn('subject_id', 'integer', (c) => c.notNull())
    .addColumn('bytes', 'bigint', (c) => c.notNull())
    .addColumn('expires_at', 'varchar(32)', (c) => c.notNull())
    .addPrimaryKeyConstraint('gateway_reservations_pk', ['gateway_id', 'kind', 'subject_id'])
    .execute();
  await db.schema.createIndex('gateway_reservations_subject').on('gateway_reservations').columns(['kind', 'subject_id']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('gateway_reservations').execute();
}

import type { Kysely } from 'kysely';

// Frozen in time: never import app code here; valid on SQLite and PostgreSQL alike.

/**
 * Leases (docs/architecture.md, background jobs): who may do a named thing until when. A background job
 * runs only in the API process holding its lease, which renews it on every tick; when the holder stops
 * renewing (it crashed), another process takes the row over once `expires_at` has passed. The payment
 * providers' poll throttle uses the same rows: asking a provider about an order takes a lease nobody renews.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('job_leases')
    .addColumn('name', 'varchar(200)', (c) => c.primaryKey())
    .addColumn('holder', 'varchar(255)', (c) => c.notNull())
    .addColumn('expires_at', 'varchar(32)', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('job_leases').execute();
}

import type { Kysely } from 'kysely';

// Frozen in time: never import app code here; valid on SQLite and PostgreSQL alike.

/**
 * An export ticket belongs to the session that asked for it and dies with it (logout, password change,
 * reset, disabling). Tickets live 60 s, so the ones of the moment are simply dropped rather than guessed
 * an owner. No foreign key: SQLite cannot drop a column that has one, and the ticket is checked against
 * its session when it is spent anyway.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.deleteFrom('export_tickets').execute();
  await db.schema.alterTable('export_tickets').addColumn('session_id', 'integer').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('export_tickets').dropColumn('session_id').execute();
}

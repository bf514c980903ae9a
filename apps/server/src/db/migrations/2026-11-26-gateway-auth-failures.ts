import type { Kysely } from 'kysely';

// Frozen in time: never import app code here; valid on SQLite and PostgreSQL alike.

/**
 * Failed proxy logins per proxy account (docs/gateway.md#connection-limits-and-failed-logins): how many, and when the latest was, so a customer
 * sees that someone is guessing an account's password. The gateways add to these with their usage flushes.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('proxy_accounts').addColumn('login_failures', 'bigint', (c) => c.notNull().defaultTo(0)).execute();
  await db.schema.alterTable('proxy_accounts').addColumn('last_login_failure_at', 'varchar(32)').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('proxy_accounts').dropColumn('last_login_failure_at').execute();
  await db.schema.alterTable('proxy_accounts').dropColumn('login_failures').execute();
}

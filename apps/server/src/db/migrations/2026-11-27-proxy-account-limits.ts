import type { Kysely } from 'kysely';

// Frozen in time: never import app code here; valid on SQLite and PostgreSQL alike.

/**
 * docs/gateway.md#concurrent-connections-per-account: each proxy account may limit its concurrent connections through the gateway. Null: the
 * operator's default (`GATEWAY_ACCOUNT_MAX_CONNECTIONS`), or no limit.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('proxy_accounts').addColumn('max_connections', 'integer').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('proxy_accounts').dropColumn('max_connections').execute();
}

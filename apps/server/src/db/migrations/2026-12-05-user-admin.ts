import type { Kysely } from 'kysely';

// Frozen in time: never import app code here.

/**
 * User administration (docs/data-model.md#users): the admin's remark on a user and a distributor's own
 * commission rate (percent; null = the shop's default). Indexes serve the admin user list's filters and
 * sorts, and a user's last sign-in (its IP and the detail drawer's recent logins).
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('users').addColumn('remark', 'varchar(200)').execute();
  // A float is exact enough for a percent with two decimals, and reads back as a number on both dialects.
  await db.schema.alterTable('users').addColumn('commission_rate', 'double precision').execute();
  await db.schema.createIndex('users_created_idx').on('users').columns(['created_at', 'id']).execute();
  await db.schema.createIndex('users_last_login_idx').on('users').columns(['last_login_at', 'id']).execute();
  await db.schema.createIndex('users_role_status_idx').on('users').columns(['role', 'status']).execute();
  await db.schema.createIndex('login_logs_user_idx').on('login_logs').columns(['user_id', 'created_at']).execute();
}

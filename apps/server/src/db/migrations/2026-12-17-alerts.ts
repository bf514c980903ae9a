import { type Kysely, PostgresAdapter, sql } from 'kysely';

// Frozen in time: never import app code here.

/**
 * Usage alerts (docs/business-rules.md#usage-alerts):
 * - `alert_settings`: a customer's thresholds, JSON arrays; no row: the defaults.
 * - `alert_crossings`: a threshold crossed and not yet re-armed (the balance or the cap has not risen back above
 *   it). Its primary key makes a crossing fire once, whichever process sees it.
 * - `notices`: what the console shows until read, one per crossing.
 * - `proxy_accounts.pause_at_cap`: at its cap the account is refused (1, the default) or goes on (0); the gateway
 *   reads it, so it joins the account's stamped columns (the mechanism of 2026-12-01-change-versions).
 */
const BEFORE = 'user_id, username, password_sealed, status, limit_bytes, used_bytes, max_connections, deleted_at, require_password';
const AFTER = `${BEFORE}, pause_at_cap`;

async function stampColumns(db: Kysely<any>, columns: string): Promise<void> {
  if (db.getExecutor().adapter instanceof PostgresAdapter) {
    await sql`drop trigger proxy_accounts_change_version on proxy_accounts`.execute(db);
    await sql.raw(`create trigger proxy_accounts_change_version before insert or update of ${columns} on proxy_accounts for each row execute function stamp_change_version()`).execute(db);
    return;
  }
  await sql`drop trigger proxy_accounts_change_version_update`.execute(db);
  await sql
    .raw(
      `create trigger proxy_accounts_change_version_update after update of ${columns} on proxy_accounts for each row begin update change_clock set version = version + 1; update proxy_accounts set change_version = (select version from change_clock) where id = new.id; end`,
    )
    .execute(db);
}

export async function up(db: Kysely<any>): Promise<void> {
  const isPg = db.getExecutor().adapter instanceof PostgresAdapter;
  await db.schema
    .createTable('alert_settings')
    .addColumn('user_id', 'integer', (c) => c.primaryKey().references('users.id').onDelete('cascade'))
    .addColumn('balance_bytes_left', 'text', (c) => c.notNull())
    .addColumn('balance_percent_left', 'text', (c) => c.notNull())
    .addColumn('account_cap_percent', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'varchar(32)', (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('alert_crossings')
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('kind', 'varchar(32)', (c) => c.notNull())
    // The proxy account for a cap, 0 for the balance.
    .addColumn('subject_id', 'integer', (c) => c.notNull())
    .addColumn('threshold', 'bigint', (c) => c.notNull())
    .addColumn('crossed_at', 'varchar(32)', (c) => c.notNull())
    .addPrimaryKeyConstraint('alert_crossings_pk', ['user_id', 'kind', 'subject_id', 'threshold'])
    .execute();
  await db.schema
    .createTable('notices')
    .addColumn('id', isPg ? 'serial' : 'integer', (c) => (isPg ? c.primaryKey() : c.primaryKey().autoIncrement()))
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('kind', 'varchar(32)', (c) => c.notNull())
    .addColumn('threshold', 'bigint', (c) => c.notNull())
    .addColumn('balance_bytes', 'bigint')
    .addColumn('account_id', 'integer')
    .addColumn('account_username', 'varchar(64)')
    .addColumn('used_bytes', 'bigint')
    .addColumn('limit_bytes', 'bigint')
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('read_at', 'varchar(32)')
    .execute();
  await db.schema.createIndex('notices_user_idx').on('notices').columns(['user_id', 'id']).execute();
  await db.schema.alterTable('proxy_accounts').addColumn('pause_at_cap', 'integer', (c) => c.notNull().defaultTo(1)).execute();
  await stampColumns(db, AFTER);
}

export async function down(db: Kysely<any>): Promise<void> {
  await stampColumns(db, BEFORE);
  await db.schema.alterTable('proxy_accounts').dropColumn('pause_at_cap').execute();
  await db.schema.dropTable('notices').execute();
  await db.schema.dropTable('alert_crossings').execute();
  await db.schema.dropTable('alert_settings').execute();
}

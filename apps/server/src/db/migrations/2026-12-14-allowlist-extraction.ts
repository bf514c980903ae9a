import { type Kysely, PostgresAdapter, sql } from 'kysely';

// Frozen in time: never import app code here.

/**
 * Proxies for programs (docs/gateway.md#allowlist, #port-endpoints, #extraction):
 * - `allowlist_entries`: addresses (one IP or a CIDR) that may use a proxy account without a password.
 *   `range_start`/`range_end` are the range's first and last address as 32 hex digits (IPv4 mapped into
 *   IPv6), so "does it overlap another account's entry" is one indexed comparison on both stores.
 * - `proxy_accounts.require_password`: the account's listed addresses must still send its password.
 * - `extract_keys`: one per proxy account, and one for the customer's static IPs (`account_id` null),
 *   stored hashed; `prefix` names it in lists.
 * - `port_leases`: a gateway port of the ranges carrying one account's sticky session until `until`.
 *
 * The gateway's cache reads all three: entries and leases stamp their owner's `users.change_version`
 * (the mechanism of 2026-12-01-change-versions), and `require_password` joins the account's stamped columns.
 */
export async function up(db: Kysely<any>): Promise<void> {
  const isPg = db.getExecutor().adapter instanceof PostgresAdapter;
  await db.schema
    .createTable('allowlist_entries')
    .addColumn('id', isPg ? 'serial' : 'integer', (c) => (isPg ? c.primaryKey() : c.primaryKey().autoIncrement()))
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('account_id', 'integer', (c) => c.notNull().references('proxy_accounts.id').onDelete('cascade'))
    .addColumn('address', 'varchar(64)', (c) => c.notNull())
    .addColumn('range_start', 'varchar(32)', (c) => c.notNull())
    .addColumn('range_end', 'varchar(32)', (c) => c.notNull())
    .addColumn('label', 'varchar(100)')
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('allowlist_entries_account_idx').on('allowlist_entries').column('account_id').execute();
  await db.schema.createIndex('allowlist_entries_user_idx').on('allowlist_entries').column('user_id').execute();
  await db.schema.createIndex('allowlist_entries_range_idx').on('allowlist_entries').columns(['range_start', 'range_end']).execute();

  await db.schema.alterTable('proxy_accounts').addColumn('require_password', 'integer', (c) => c.notNull().defaultTo(0)).execute();

  await db.schema
    .createTable('extract_keys')
    .addColumn('key_hash', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('account_id', 'integer', (c) => c.references('proxy_accounts.id').onDelete('cascade'))
    .addColumn('prefix', 'varchar(16)', (c) => c.notNull())
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .execute();
  // One key per account, and one for a customer's static IPs (account 0 stands for "static" in the index).
  await sql`create unique index extract_keys_owner_idx on extract_keys (user_id, coalesce(account_id, 0))`.execute(db);

  await db.schema
    .createTable('port_leases')
    .addColumn('protocol', 'varchar(8)', (c) => c.notNull())
    .addColumn('port', 'integer', (c) => c.notNull())
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('account_id', 'integer', (c) => c.notNull().references('proxy_accounts.id').onDelete('cascade'))
    .addColumn('country', 'varchar(2)')
    .addColumn('state', 'varchar(32)')
    .addColumn('city', 'varchar(32)')
    .addColumn('session', 'varchar(32)')
    .addColumn('life_minutes', 'integer', (c) => c.notNull())
    .addColumn('until', 'varchar(32)', (c) => c.notNull())
    .addPrimaryKeyConstraint('port_leases_pk', ['protocol', 'port'])
    .execute();
  await db.schema.createIndex('port_leases_user_idx').on('port_leases').column('user_id').execute();

  const accountColumns = 'user_id, username, password_sealed, status, limit_bytes, used_bytes, max_connections, deleted_at, require_password';
  if (isPg) {
    const version = 'pg_current_xact_id()::text::bigint';
    await sql`drop trigger proxy_accounts_change_version on proxy_accounts`.execute(db);
    await sql.raw(`create trigger proxy_accounts_change_version before insert or update of ${accountColumns} on proxy_accounts for each row execute function stamp_change_version()`).execute(db);
    await sql
      .raw(
        `create function stamp_user_of_row_change_version() returns trigger language plpgsql as $$
      begin
        if tg_op = 'DELETE' then
          update users set change_version = ${version} where id = old.user_id;
        elsif tg_op = 'INSERT' then
          update users set change_version = ${version} where id = new.user_id;
        else
          update users set change_version = ${version} where id in (old.user_id, new.user_id);
        end if;
        return null;
      end $$`,
      )
      .execute(db);
    for (const table of ['allowlist_entries', 'port_leases']) {
      await sql.raw(`create trigger ${table}_change_version after insert or update or delete on ${table} for each row execute function stamp_user_of_row_change_version()`).execute(db);
    }
    return;
  }
  const tick = 'update change_clock set version = version + 1;';
  const version = '(select version from change_clock)';
  await sql`drop trigger proxy_accounts_change_version_update`.execute(db);
  await sql
    .raw(`create trigger proxy_accounts_change_version_update after update of ${accountColumns} on proxy_accounts for each row begin ${tick} update proxy_accounts set change_version = ${version} where id = new.id; end`)
    .execute(db);
  const stamp = (users: string) => `begin ${tick} update users set change_version = ${version} where id in (${users}); end`;
  for (const table of ['allowlist_entries', 'port_leases']) {
    await sql.raw(`create trigger ${table}_change_version_insert after insert on ${table} for each row ${stamp('new.user_id')}`).execute(db);
    await sql.raw(`create trigger ${table}_change_version_update after update on ${table} for each row ${stamp('old.user_id, new.user_id')}`).execute(db);
    await sql.raw(`create trigger ${table}_change_version_delete after delete on ${table} for each row ${stamp('old.user_id')}`).execute(db);
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  const isPg = db.getExecutor().adapter instanceof PostgresAdapter;
  const accountColumns = 'user_id, username, password_sealed, status, limit_bytes, used_bytes, max_connections, deleted_at';
  if (isPg) {
    for (const table of ['allowlist_entries', 'port_leases']) await sql.raw(`drop trigger if exists ${table}_change_version on ${table}`).execute(db);
    await sql`drop function if exists stamp_user_of_row_change_version()`.execute(db);
    await sql`drop trigger proxy_accounts_change_version on proxy_accounts`.execute(db);
    await sql.raw(`create trigger proxy_accounts_change_version before insert or update of ${accountColumns} on proxy_accounts for each row execute function stamp_change_version()`).execute(db);
  } else {
    await sql`drop trigger proxy_accounts_change_version_update`.execute(db);
    await sql
      .raw(
        `create trigger proxy_accounts_change_version_update after update of ${accountColumns} on proxy_accounts for each row begin update change_clock set version = version + 1; update proxy_accounts set change_version = (select version from change_clock) where id = new.id; end`,
      )
      .execute(db);
  }
  await db.schema.dropTable('port_leases').execute();
  await db.schema.dropTable('extract_keys').execute();
  await db.schema.alterTable('proxy_accounts').dropColumn('require_password').execute();
  await db.schema.dropTable('allowlist_entries').execute();
}

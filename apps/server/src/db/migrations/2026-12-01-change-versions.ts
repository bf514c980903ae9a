import { type Kysely, PostgresAdapter, sql } from 'kysely';

// Frozen in time: never import app code here.

/**
 * Change versions (docs/gateway.md, "Account cache"): every write to what the gateway's account cache
 * reads stamps the row with a version, so the cache re-reads only the users whose rows changed since it
 * last looked. Stamped by triggers, not by the code that writes, so no write can forget it (an admin
 * tool, a script, a later module): proxy accounts (the columns the cache reads), a user's status, traffic
 * grants; deleting an account or a grant stamps its owner.
 *
 * What a version is, per store, so that "not yet seen" can be told exactly:
 * - PostgreSQL: the writing transaction's id (`pg_current_xact_id()`, 64 bits, never wraps). A reader's
 *   snapshot lists which ids may still commit (`pg_current_snapshot()`: those from xmax on, and those in
 *   progress), so a version that a concurrent transaction commits late is still recognized as unseen.
 *   A sequence would not do: a value taken by a transaction that commits later can appear below one
 *   already read.
 * - SQLite: a counter in `change_clock`, counted up by each stamp. SQLite has one writer at a time, so
 *   versions become visible in the order they are taken: everything above the counter a reader saw is unseen.
 */
export async function up(db: Kysely<any>): Promise<void> {
  const isPg = db.getExecutor().adapter instanceof PostgresAdapter;
  for (const table of ['proxy_accounts', 'users', 'traffic_grants']) {
    await db.schema.alterTable(table).addColumn('change_version', 'bigint').execute();
    await db.schema.createIndex(`${table}_change_version_idx`).on(table).column('change_version').execute();
  }
  // Only what the cache reads stamps a version: a failed-login count or a remark does not.
  const stamped = {
    proxy_accounts: 'user_id, username, password_sealed, status, limit_bytes, used_bytes, max_connections, deleted_at',
    users: 'status',
    traffic_grants: 'user_id, bytes, used_bytes, expires_at',
  };

  if (isPg) {
    await sql`
      create function stamp_change_version() returns trigger language plpgsql as $$
      begin
        new.change_version := pg_current_xact_id()::text::bigint;
        return new;
      end $$`.execute(db);
    await sql`
      create function stamp_owner_change_version() returns trigger language plpgsql as $$
      begin
        update users set change_version = pg_current_xact_id()::text::bigint where id = old.user_id;
        return old;
      end $$`.execute(db);
    for (const [table, columns] of Object.entries(stamped)) {
      // A new user has no accounts or grants yet: nothing to read.
      const events = table === 'users' ? `update of ${columns}` : `insert or update of ${columns}`;
      await sql.raw(`create trigger ${table}_change_version before ${events} on ${table} for each row execute function stamp_change_version()`).execute(db);
    }
    for (const table of ['proxy_accounts', 'traffic_grants']) {
      await sql.raw(`create trigger ${table}_deleted_change_version after delete on ${table} for each row execute function stamp_owner_change_version()`).execute(db);
    }
    return;
  }

  await db.schema
    .createTable('change_clock')
    .addColumn('id', 'integer', (c) => c.primaryKey().check(sql`id = 1`))
    .addColumn('version', 'bigint', (c) => c.notNull())
    .execute();
  await db.insertInto('change_clock').values({ id: 1, version: 0 }).execute();
  const tick = 'update change_clock set version = version + 1;';
  const version = '(select version from change_clock)';
  for (const [table, columns] of Object.entries(stamped)) {
    // AFTER triggers (SQLite's BEFORE cannot change the row). The stamp writes only change_version, which
    // is not among the columns that fire the trigger, so it never fires itself.
    const stamp = `begin ${tick} update ${table} set change_version = ${version} where id = new.id; end`;
    if (table !== 'users') await sql.raw(`create trigger ${table}_change_version_insert after insert on ${table} for each row ${stamp}`).execute(db);
    await sql.raw(`create trigger ${table}_change_version_update after update of ${columns} on ${table} for each row ${stamp}`).execute(db);
  }
  for (const table of ['proxy_accounts', 'traffic_grants']) {
    await sql.raw(`create trigger ${table}_deleted_change_version after delete on ${table} for each row begin ${tick} update users set change_version = ${version} where id = old.user_id; end`).execute(db);
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  const isPg = db.getExecutor().adapter instanceof PostgresAdapter;
  if (isPg) {
    for (const table of ['proxy_accounts', 'users', 'traffic_grants']) await sql.raw(`drop trigger if exists ${table}_change_version on ${table}`).execute(db);
    for (const table of ['proxy_accounts', 'traffic_grants']) await sql.raw(`drop trigger if exists ${table}_deleted_change_version on ${table}`).execute(db);
    await sql`drop function if exists stamp_change_version()`.execute(db);
    await sql`drop function if exists stamp_owner_change_version()`.execute(db);
  } else {
    for (const table of ['proxy_accounts', 'traffic_grants']) {
      await sql.raw(`drop trigger if exists ${table}_change_version_insert`).execute(db);
      await sql.raw(`drop trigger if exists ${table}_deleted_change_version`).execute(db);
    }
    for (const table of ['proxy_accounts', 'users', 'traffic_grants']) await sql.raw(`drop trigger if exists ${table}_change_version_update`).execute(db);
    await db.schema.dropTable('change_clock').execute();
  }
  for (const table of ['proxy_accounts', 'users', 'traffic_grants']) {
    await db.schema.dropIndex(`${table}_change_version_idx`).execute();
    await db.schema.alterTable(table).dropColumn('change_version').execute();
  }
}

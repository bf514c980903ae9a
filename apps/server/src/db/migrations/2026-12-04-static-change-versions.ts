import { type Kysely, PostgresAdapter, sql } from 'kysely';

// Frozen in time: never import app code here.

/**
 * Change versions for static IPs (docs/gateway.md, "Account cache"; the mechanism is migration
 * 2026-12-01-change-versions): the gateway serves a static IP's login with its allocation (status,
 * expiry, the inventory row it exits through) and that row's upstream (status, address, credentials),
 * so a write to any of these stamps the login's `proxy_accounts` row, and the cache re-reads its owner.
 * An inventory row stamps the logins of the allocations on it that are not released (a released one is
 * refused whatever its row does). Only the stamp is written: `change_version` is not among the columns
 * that fire the account's own trigger, so nothing fires twice.
 */
export async function up(db: Kysely<any>): Promise<void> {
  const isPg = db.getExecutor().adapter instanceof PostgresAdapter;
  const allocationColumns = 'user_id, account_id, inventory_id, region_id, status, expires_at';
  const inventoryColumns = 'status, protocol, host, port, username, password_sealed';
  const loginsOnRow = (row: string) => `select account_id from static_allocations where inventory_id = ${row}.id and status <> 'released'`;

  if (isPg) {
    const version = 'pg_current_xact_id()::text::bigint';
    await sql
      .raw(
        `create function stamp_static_login_change_version() returns trigger language plpgsql as $$
      begin
        if tg_op = 'DELETE' then
          update proxy_accounts set change_version = ${version} where id = old.account_id;
        elsif tg_op = 'INSERT' then
          update proxy_accounts set change_version = ${version} where id = new.account_id;
        else
          update proxy_accounts set change_version = ${version} where id in (old.account_id, new.account_id);
        end if;
        return null;
      end $$`,
      )
      .execute(db);
    await sql
      .raw(
        `create function stamp_static_inventory_change_version() returns trigger language plpgsql as $$
      begin
        update proxy_accounts set change_version = ${version} where id in (${loginsOnRow('new')});
        return null;
      end $$`,
      )
      .execute(db);
    await sql
      .raw(`create trigger static_allocations_change_version after insert or update of ${allocationColumns} or delete on static_allocations for each row execute function stamp_static_login_change_version()`)
      .execute(db);
    await sql
      .raw(`create trigger static_inventory_change_version after update of ${inventoryColumns} on static_inventory for each row execute function stamp_static_inventory_change_version()`)
      .execute(db);
    return;
  }

  const tick = 'update change_clock set version = version + 1;';
  const version = '(select version from change_clock)';
  const stamp = (accounts: string) => `begin ${tick} update proxy_accounts set change_version = ${version} where id in (${accounts}); end`;
  await sql.raw(`create trigger static_allocations_change_version_insert after insert on static_allocations for each row ${stamp('new.account_id')}`).execute(db);
  await sql
    .raw(`create trigger static_allocations_change_version_update after update of ${allocationColumns} on static_allocations for each row ${stamp('old.account_id, new.account_id')}`)
    .execute(db);
  await sql.raw(`create trigger static_allocations_deleted_change_version after delete on static_allocations for each row ${stamp('old.account_id')}`).execute(db);
  // A new inventory row has no allocation yet: only updates matter.
  await sql.raw(`create trigger static_inventory_change_version_update after update of ${inventoryColumns} on static_inventory for each row ${stamp(loginsOnRow('new'))}`).execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  const isPg = db.getExecutor().adapter instanceof PostgresAdapter;
  if (isPg) {
    await sql`drop trigger if exists static_allocations_change_version on static_allocations`.execute(db);
    await sql`drop trigger if exists static_inventory_change_version on static_inventory`.execute(db);
    await sql`drop function if exists stamp_static_login_change_version()`.execute(db);
    await sql`drop function if exists stamp_static_inventory_change_version()`.execute(db);
    return;
  }
  for (const t of ['static_allocations_change_version_insert', 'static_allocations_change_version_update', 'static_allocations_deleted_change_version', 'static_inventory_change_version_update']) {
    await sql.raw(`drop trigger if exists ${t}`).execute(db);
  }
}

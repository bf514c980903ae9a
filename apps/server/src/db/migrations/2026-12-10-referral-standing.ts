import { type Kysely, sql } from 'kysely';

// Frozen in time: never import app code here; types valid on SQLite and PostgreSQL alike.

/**
 * Abuse of the distribution programme (docs/business-rules.md#referred-users, #commission, #invitations-and-channels):
 *
 * - `users.disabled_by`: who disabled the user, `admin` or `distributor`; a distributor lifts only their own
 *   suspension. Users disabled before this was recorded count as the admin's.
 * - `users.created_by`: the distributor who created the customer with saveuser (no mail code). Earlier ones
 *   are found through their `referral.create` audit rows.
 * - `channel_visits.visitor`: a keyed hash of the landing's address, so one address counts once per
 *   channel and day (older rows have none and stay as they were counted).
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('users').addColumn('disabled_by', 'varchar(16)').execute();
  await sql`update users set disabled_by = 'admin' where status = 'disabled'`.execute(db);

  await db.schema
    .alterTable('users')
    .addColumn('created_by', 'integer', (c) => c.references('users.id'))
    .execute();
  await sql`update users set created_by = (
    select min(a.actor_id) from audit_logs a where a.action = 'referral.create' and a.target = 'user:' || cast(users.id as varchar(16)))
    where referrer_id is not null`.execute(db);

  await db.schema.alterTable('channel_visits').addColumn('visitor', 'varchar(64)').execute();
  await db.schema.createIndex('channel_visits_visitor_uq').on('channel_visits').columns(['day', 'channel_key', 'channel_value', 'visitor']).unique().execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('channel_visits_visitor_uq').execute();
  await db.schema.alterTable('channel_visits').dropColumn('visitor').execute();
  await db.schema.alterTable('users').dropColumn('created_by').execute();
  await db.schema.alterTable('users').dropColumn('disabled_by').execute();
}

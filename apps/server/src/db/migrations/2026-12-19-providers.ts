import { type Kysely, PostgresAdapter, sql } from 'kysely';

// Frozen in time: never import app code here.

/**
 * Upstream providers (docs/gateway.md#providers, docs/business-rules.md#margin):
 * - `providers`: a template and/or a list of upstreams (the `upstreams` rows with its `provider_id`), the
 *   countries it serves (comma-separated, '' = all), priority, weight, monthly quota, enabled/paused. Deleting
 *   one stamps `deleted_at`: its usage and costs stay for the margin of past periods.
 * - `provider_costs`: cost per GB in minor units from a UTC date on; a provider without one costs 0.
 * - `provider_usage_daily`: bytes per provider, exit country and UTC day, and the revenue of those bytes in
 *   millionths of a minor unit, written by the same usage flush that bills the customer.
 * - `provider_health`: the shared breaker state (up/down/probing) every gateway process reads, and the last
 *   active probe; `notified_state` and `quota_notified_month` record what admins were mailed.
 * - `provider_windows`: each gateway process's last window of dials per provider (counts and a latency
 *   histogram), summed across processes for the admin.
 * - `static_inventory.cost_month`: what a static IP costs the operator per month, minor units.
 *
 * Today's supply becomes the first provider: the enabled upstreams and the stored template as "Default";
 * disabled upstreams, if any, as a paused "Default (disabled)" so none is lost and none starts carrying traffic.
 */
export async function up(db: Kysely<any>): Promise<void> {
  const isPg = db.getExecutor().adapter instanceof PostgresAdapter;
  const id = (t: string) => db.schema.createTable(t).addColumn('id', isPg ? 'serial' : 'integer', (c) => (isPg ? c.primaryKey() : c.primaryKey().autoIncrement()));
  const big = isPg ? 'bigint' : 'integer';

  await id('providers')
    .addColumn('name', 'varchar(60)', (c) => c.notNull())
    .addColumn('template', 'varchar(500)', (c) => c.notNull().defaultTo(''))
    .addColumn('regions', 'varchar(1000)', (c) => c.notNull().defaultTo(''))
    .addColumn('priority', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('weight', 'integer', (c) => c.notNull().defaultTo(100))
    .addColumn('monthly_quota_gb', 'real')
    .addColumn('status', 'varchar(16)', (c) => c.notNull().defaultTo('enabled'))
    .addColumn('deleted_at', 'varchar(32)')
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('updated_at', 'varchar(32)', (c) => c.notNull())
    .execute();

  await db.schema.alterTable('upstreams').addColumn('provider_id', 'integer').execute();
  await db.schema.createIndex('upstreams_provider_idx').on('upstreams').columns(['provider_id', 'id']).execute();

  await id('provider_costs')
    .addColumn('provider_id', 'integer', (c) => c.notNull())
    .addColumn('amount', 'integer', (c) => c.notNull())
    .addColumn('currency', 'varchar(3)', (c) => c.notNull())
    .addColumn('from_day', 'varchar(10)', (c) => c.notNull())
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('provider_costs_key').on('provider_costs').columns(['provider_id', 'from_day']).unique().execute();

  await db.schema
    .createTable('provider_usage_daily')
    .addColumn('day', 'varchar(10)', (c) => c.notNull())
    .addColumn('provider_id', 'integer', (c) => c.notNull())
    .addColumn('country', 'varchar(2)', (c) => c.notNull())
    .addColumn('bytes', big, (c) => c.notNull())
    .addColumn('revenue_micro', big, (c) => c.notNull())
    .addPrimaryKeyConstraint('provider_usage_daily_pk', ['day', 'provider_id', 'country'])
    .execute();
  await db.schema.createIndex('provider_usage_daily_provider_idx').on('provider_usage_daily').columns(['provider_id', 'day']).execute();

  await db.schema
    .createTable('provider_health')
    .addColumn('provider_id', 'integer', (c) => c.primaryKey())
    .addColumn('state', 'varchar(16)', (c) => c.notNull())
    .addColumn('since', 'varchar(32)', (c) => c.notNull())
    .addColumn('retry_at', 'varchar(32)')
    .addColumn('last_error', 'varchar(200)')
    .addColumn('last_probe_at', 'varchar(32)')
    .addColumn('probe_ms', 'integer')
    .addColumn('probe_country', 'varchar(2)')
    .addColumn('country_mismatch', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('notified_state', 'varchar(16)', (c) => c.notNull().defaultTo('up'))
    .addColumn('quota_notified_month', 'varchar(7)')
    .execute();

  await db.schema
    .createTable('provider_windows')
    .addColumn('provider_id', 'integer', (c) => c.notNull())
    .addColumn('gateway_id', 'varchar(64)', (c) => c.notNull())
    .addColumn('attempts', 'integer', (c) => c.notNull())
    .addColumn('failures', 'integer', (c) => c.notNull())
    .addColumn('histogram', 'varchar(2000)', (c) => c.notNull())
    .addColumn('updated_at', 'varchar(32)', (c) => c.notNull())
    .addPrimaryKeyConstraint('provider_windows_pk', ['provider_id', 'gateway_id'])
    .execute();

  await db.schema.alterTable('static_inventory').addColumn('cost_month', 'integer', (c) => c.notNull().defaultTo(0)).execute();

  // Today's supply as the first provider.
  const now = new Date().toISOString();
  const stored = await db.selectFrom('settings').select('value').where('key', '=', 'gateway.supply').executeTakeFirst();
  const settings = stored ? (JSON.parse(stored.value) as { template?: string; directEgress?: boolean }) : {};
  const template = settings.template ?? '';
  const counts = await db
    .selectFrom('upstreams')
    .select(['enabled', sql<number>`count(*)`.as('n')])
    .groupBy('enabled')
    .execute();
  const enabled = Number(counts.find((r) => Number(r.enabled) === 1)?.n ?? 0);
  const disabled = Number(counts.find((r) => Number(r.enabled) !== 1)?.n ?? 0);
  const provider = async (name: string, status: string, tpl: string): Promise<number> => {
    const row = await db
      .insertInto('providers')
      .values({ name, template: tpl, regions: '', priority: 1, weight: 100, status, created_at: now, updated_at: now })
      .returning('id')
      .executeTakeFirstOrThrow();
    return Number(row.id);
  };
  if (enabled > 0 || template !== '') {
    const first = await provider('Default', 'enabled', template);
    await db.updateTable('upstreams').set({ provider_id: first }).where('enabled', '=', 1).execute();
  }
  if (disabled > 0) {
    const paused = await provider('Default (disabled)', 'paused', '');
    await db.updateTable('upstreams').set({ provider_id: paused, enabled: 1 }).where('enabled', '<>', 1).execute();
  }
  if (stored) {
    const value = JSON.stringify({ directEgress: settings.directEgress ?? false });
    await db.updateTable('settings').set({ value }).where('key', '=', 'gateway.supply').execute();
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('static_inventory').dropColumn('cost_month').execute();
  await db.schema.dropTable('provider_windows').execute();
  await db.schema.dropTable('provider_health').execute();
  await db.schema.dropTable('provider_usage_daily').execute();
  await db.schema.dropTable('provider_costs').execute();
  await db.schema.dropIndex('upstreams_provider_idx').execute();
  await db.schema.alterTable('upstreams').dropColumn('provider_id').execute();
  await db.schema.dropTable('providers').execute();
}

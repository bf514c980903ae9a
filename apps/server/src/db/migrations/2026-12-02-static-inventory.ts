import { type Kysely, PostgresAdapter } from 'kysely';

// Frozen in time: never import app code here; types valid on SQLite and PostgreSQL alike.

/**
 * Static residential inventory (docs/data-model.md#static-residential-inventory): one row per exit IP the
 * operator bought from an upstream provider, the business lines it may serve (none listed = all), and
 * its history.
 */
export async function up(db: Kysely<any>): Promise<void> {
  const isPg = db.getExecutor().adapter instanceof PostgresAdapter;
  const id = isPg ? 'serial' : 'integer';
  const pk = (c: any) => (isPg ? c.primaryKey() : c.primaryKey().autoIncrement());

  await db.schema
    .createTable('static_inventory')
    .addColumn('id', id, pk)
    // One row per exit address, whatever its status: importing an address again is a duplicate.
    .addColumn('exit_ip', 'varchar(45)', (c) => c.notNull().unique())
    .addColumn('region_id', 'integer', (c) => c.notNull().references('static_regions.id'))
    .addColumn('isp', 'varchar(100)')
    .addColumn('protocol', 'varchar(8)', (c) => c.notNull())
    .addColumn('host', 'varchar(253)', (c) => c.notNull())
    .addColumn('port', 'integer', (c) => c.notNull())
    .addColumn('username', 'varchar(200)')
    .addColumn('password_sealed', 'varchar(512)')
    .addColumn('status', 'varchar(16)', (c) => c.notNull().defaultTo('free'))
    // The pending order holding a reserved row (released when the order expires or is cancelled).
    .addColumn('order_id', 'integer', (c) => c.references('orders.id'))
    .addColumn('cooldown_until', 'varchar(32)')
    .addColumn('remark', 'varchar(200)')
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('updated_at', 'varchar(32)', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('static_inventory_stock_idx').on('static_inventory').columns(['region_id', 'status']).execute();

  await db.schema
    .createTable('static_inventory_businesses')
    .addColumn('inventory_id', 'integer', (c) => c.notNull().references('static_inventory.id').onDelete('cascade'))
    .addColumn('business_id', 'integer', (c) => c.notNull().references('businesses.id'))
    .addPrimaryKeyConstraint('static_inventory_businesses_pk', ['inventory_id', 'business_id'])
    .execute();

  await db.schema
    .createTable('static_inventory_events')
    .addColumn('id', id, pk)
    .addColumn('inventory_id', 'integer', (c) => c.notNull().references('static_inventory.id').onDelete('cascade'))
    .addColumn('event', 'varchar(16)', (c) => c.notNull())
    .addColumn('user_id', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('order_id', 'integer', (c) => c.references('orders.id').onDelete('set null'))
    .addColumn('actor_id', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('reason', 'varchar(200)')
    .addColumn('at', 'varchar(32)', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('static_inventory_events_row_idx').on('static_inventory_events').columns(['inventory_id', 'id']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const t of ['static_inventory_events', 'static_inventory_businesses', 'static_inventory']) await db.schema.dropTable(t).execute();
}

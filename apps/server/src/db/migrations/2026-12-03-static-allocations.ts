import type { Kysely } from 'kysely';
import { PostgresAdapter } from 'kysely';

// Frozen in time: never import app code here; types valid on SQLite and PostgreSQL alike.

/**
 * Static allocations (docs/data-model.md#static-residential-inventory): a customer's static IP. Its
 * gateway login is a proxy account of kind `static`, so proxy usernames stay unique across both products
 * by the one unique key they already have, and the gateway's account cache, cut-offs and usage rows
 * serve static IPs as they serve rotating accounts.
 */
export async function up(db: Kysely<any>): Promise<void> {
  const isPg = db.getExecutor().adapter instanceof PostgresAdapter;
  const id = isPg ? 'serial' : 'integer';
  const pk = (c: any) => (isPg ? c.primaryKey() : c.primaryKey().autoIncrement());

  await db.schema.alterTable('proxy_accounts').addColumn('kind', 'varchar(16)', (c) => c.notNull().defaultTo('rotating')).execute();

  await db.schema
    .createTable('static_allocations')
    .addColumn('id', id, pk)
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('account_id', 'integer', (c) => c.notNull().unique().references('proxy_accounts.id').onDelete('cascade'))
    // The inventory row it exits through now (a replacement moves it to another).
    .addColumn('inventory_id', 'integer', (c) => c.notNull().references('static_inventory.id'))
    .addColumn('region_id', 'integer', (c) => c.notNull().references('static_regions.id'))
    .addColumn('business_id', 'integer', (c) => c.notNull().references('businesses.id'))
    .addColumn('order_id', 'integer', (c) => c.references('orders.id'))
    .addColumn('status', 'varchar(16)', (c) => c.notNull().defaultTo('active'))
    .addColumn('starts_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('expires_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('released_at', 'varchar(32)')
    .addColumn('remark', 'varchar(100)')
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('updated_at', 'varchar(32)', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('static_allocations_user_idx').on('static_allocations').columns(['user_id', 'id']).execute();
  await db.schema.createIndex('static_allocations_expiry_idx').on('static_allocations').columns(['status', 'expires_at']).execute();
  await db.schema.createIndex('static_allocations_inventory_idx').on('static_allocations').column('inventory_id').execute();
  // Which allocation a step of an inventory row's history concerns: replacements are counted per allocation.
  await db.schema.alterTable('static_inventory_events').addColumn('allocation_id', 'integer', (c) => c.references('static_allocations.id').onDelete('set null')).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('static_inventory_events').dropColumn('allocation_id').execute();
  await db.schema.dropTable('static_allocations').execute();
  await db.schema.alterTable('proxy_accounts').dropColumn('kind').execute();
}

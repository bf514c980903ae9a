import { type Kysely, PostgresAdapter, sql } from 'kysely';

// Frozen in time: never import app code here; types valid on SQLite and PostgreSQL alike.
export async function up(db: Kysely<any>): Promise<void> {
  const isPg = db.getExecutor().adapter instanceof PostgresAdapter;
  const id = isPg ? 'serial' : 'integer';
  const pk = (c: any) => (isPg ? c.primaryKey() : c.primaryKey().autoIncrement());

  await db.schema
    .createTable('packages')
    .addColumn('id', id, pk)
    .addColumn('name_en', 'varchar(100)', (c) => c.notNull())
    .addColumn('name_zh_cn', 'varchar(100)', (c) => c.notNull())
    .addColumn('name_zh', 'varchar(100)', (c) => c.notNull())
    .addColumn('bytes', 'bigint', (c) => c.notNull())
    .addColumn('price', 'bigint', (c) => c.notNull())
    .addColumn('currency', 'varchar(3)', (c) => c.notNull())
    .addColumn('validity_days', 'integer', (c) => c.notNull())
    .addColumn('badge', 'varchar(16)')
    .addColumn('sort', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('enabled', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('updated_at', 'varchar(32)', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('regions')
    .addColumn('id', id, pk)
    .addColumn('country', 'varchar(2)', (c) => c.notNull())
    .addColumn('state', 'varchar(32)')
    .addColumn('city', 'varchar(32)')
    .addColumn('name_en', 'varchar(100)', (c) => c.notNull())
    .addColumn('name_zh_cn', 'varchar(100)', (c) => c.notNull())
    .addColumn('name_zh', 'varchar(100)', (c) => c.notNull())
    .addColumn('pool_size', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('sort', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('enabled', 'integer', (c) => c.notNull().defaultTo(1))
    .execute();
  // NULL never equals NULL in a unique index, so the key spells absent parts as ''.
  await sql`create unique index regions_place_uq on regions (country, coalesce(state, ''), coalesce(city, ''))`.execute(db);

  await db.schema
    .createTable('static_regions')
    .addColumn('id', id, pk)
    .addColumn('country', 'varchar(2)', (c) => c.notNull())
    .addColumn('city', 'varchar(32)')
    .addColumn('name_en', 'varchar(100)', (c) => c.notNull())
    .addColumn('name_zh_cn', 'varchar(100)', (c) => c.notNull())
    .addColumn('name_zh', 'varchar(100)', (c) => c.notNull())
    .addColumn('sort', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('enabled', 'integer', (c) => c.notNull().defaultTo(1))
    .execute();
  await sql`create unique index static_regions_place_uq on static_regions (country, coalesce(city, ''))`.execute(db);

  await db.schema
    .createTable('businesses')
    .addColumn('id', id, pk)
    .addColumn('code', 'varchar(32)', (c) => c.notNull().unique())
    .addColumn('name_en', 'varchar(100)', (c) => c.notNull())
    .addColumn('name_zh_cn', 'varchar(100)', (c) => c.notNull())
    .addColumn('name_zh', 'varchar(100)', (c) => c.notNull())
    .addColumn('sort', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('enabled', 'integer', (c) => c.notNull().defaultTo(1))
    .execute();

  await db.schema
    .createTable('static_prices')
    .addColumn('id', id, pk)
    .addColumn('region_id', 'integer', (c) => c.notNull().references('static_regions.id').onDelete('cascade'))
    .addColumn('business_id', 'integer', (c) => c.notNull().references('businesses.id').onDelete('cascade'))
    .addColumn('days', 'integer', (c) => c.notNull())
    .addColumn('price', 'bigint', (c) => c.notNull())
    .addColumn('currency', 'varchar(3)', (c) => c.notNull())
    .addUniqueConstraint('static_prices_uq', ['region_id', 'business_id', 'days'])
    .execute();

  await db.schema
    .createTable('orders')
    .addColumn('id', id, pk)
    .addColumn('order_no', 'varchar(40)', (c) => c.notNull().unique())
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id'))
    .addColumn('kind', 'varchar(16)', (c) => c.notNull())
    .addColumn('items', 'text', (c) => c.notNull())
    .addColumn('amount', 'bigint', (c) => c.notNull())
    .addColumn('currency', 'varchar(3)', (c) => c.notNull())
    .addColumn('pay_method', 'varchar(16)')
    // What the browser does next (JSON), so Recharge Details can show a pending order's payment again.
    .addColumn('payment', 'text')
    // What the provider must be paid, in its own unit: the order's amount and currency for most
    // methods, micro-USDT of the order's unique exact amount for usdt-trc20.
    .addColumn('pay_amount', 'bigint')
    .addColumn('pay_currency', 'varchar(8)')
    .addColumn('provider_ref', 'varchar(128)')
    .addColumn('status', 'varchar(16)', (c) => c.notNull())
    .addColumn('paid_by', 'varchar(16)')
    .addColumn('note', 'varchar(200)')
    .addColumn('created_by', 'integer', (c) => c.references('users.id'))
    .addColumn('expires_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('paid_at', 'varchar(32)')
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('updated_at', 'varchar(32)', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('orders_user_idx').on('orders').columns(['user_id', 'created_at']).execute();
  await db.schema.createIndex('orders_status_idx').on('orders').columns(['status', 'expires_at']).execute();
  // Two open orders may never share one exact USDT amount: that amount is how a transfer finds its order.
  // (Orders are created in the store currency and get their USDT amount a moment later.)
  await sql`create unique index orders_open_usdt_amount_uq on orders (pay_amount) where status = 'pending' and pay_method = 'usdt-trc20' and pay_currency = 'USDT'`.execute(db);
  await sql`create unique index orders_provider_ref_uq on orders (pay_method, provider_ref) where provider_ref is not null`.execute(db);

  await db.schema
    .createTable('traffic_grants')
    .addColumn('id', id, pk)
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id'))
    // One grant per order at most: a second credit of the same order fails here even if a bug got past
    // the conditional update.
    .addColumn('order_id', 'integer', (c) => c.references('orders.id').unique())
    .addColumn('bytes', 'bigint', (c) => c.notNull())
    .addColumn('used_bytes', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('expires_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('traffic_grants_user_idx').on('traffic_grants').columns(['user_id', 'expires_at']).execute();

  // Every provider event seen, once: the unique key is what makes a replayed webhook a no-op.
  await db.schema
    .createTable('payment_events')
    .addColumn('id', id, pk)
    .addColumn('provider', 'varchar(16)', (c) => c.notNull())
    .addColumn('event_id', 'varchar(128)', (c) => c.notNull())
    .addColumn('order_no', 'varchar(40)')
    .addColumn('amount', 'varchar(40)', (c) => c.notNull())
    .addColumn('asset', 'varchar(16)', (c) => c.notNull())
    .addColumn('result', 'varchar(16)', (c) => c.notNull())
    .addColumn('reason', 'varchar(64)')
    .addColumn('review_status', 'varchar(16)')
    .addColumn('payload', 'text')
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('resolved_at', 'varchar(32)')
    .addColumn('resolved_by', 'integer', (c) => c.references('users.id'))
    .addUniqueConstraint('payment_events_uq', ['provider', 'event_id'])
    .execute();
  await db.schema.createIndex('payment_events_review_idx').on('payment_events').columns(['review_status', 'created_at']).execute();

  await db.schema
    .createTable('intention_logs')
    .addColumn('id', id, pk)
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id'))
    .addColumn('kind', 'varchar(16)', (c) => c.notNull())
    .addColumn('goods_id', 'integer')
    .addColumn('pay_method', 'varchar(16)')
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('audit_logs')
    .addColumn('id', id, pk)
    .addColumn('actor_id', 'integer', (c) => c.references('users.id'))
    .addColumn('action', 'varchar(64)', (c) => c.notNull())
    .addColumn('target', 'varchar(128)', (c) => c.notNull())
    .addColumn('before', 'text')
    .addColumn('after', 'text')
    .addColumn('ip', 'varchar(64)')
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('audit_logs_target_idx').on('audit_logs').columns(['target', 'created_at']).execute();

  await db.schema
    .createTable('pay_configs')
    .addColumn('method', 'varchar(16)', (c) => c.primaryKey())
    .addColumn('enabled', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('settings', 'text', (c) => c.notNull())
    // AES-GCM sealed JSON of the method's secrets (APP_SECRET-derived key).
    .addColumn('secrets', 'text')
    .addColumn('updated_at', 'varchar(32)', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('export_tickets')
    .addColumn('ticket_hash', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('expires_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('used_at', 'varchar(32)')
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const t of [
    'export_tickets',
    'pay_configs',
    'audit_logs',
    'intention_logs',
    'payment_events',
    'traffic_grants',
    'orders',
    'static_prices',
    'businesses',
    'static_regions',
    'regions',
    'packages',
  ]) {
    await db.schema.dropTable(t).execute();
  }
}

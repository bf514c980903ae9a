import { type Kysely, PostgresAdapter, sql } from 'kysely';

// Frozen in time: never import app code here; types valid on SQLite and PostgreSQL alike.

/**
 * Distribution (docs/data-model.md#distribution): the commission ledger, payoff requests and channel
 * landings, and a distributor's own note on a referred user (the admins' `remark` stays theirs).
 * Distribution settings are a row of `settings` (key `distribution`), like the supply settings.
 */
export async function up(db: Kysely<any>): Promise<void> {
  const isPg = db.getExecutor().adapter instanceof PostgresAdapter;
  const id = isPg ? 'serial' : 'integer';
  const pk = (c: any) => (isPg ? c.primaryKey() : c.primaryKey().autoIncrement());

  await db.schema
    .createTable('commissions')
    .addColumn('id', id, pk)
    .addColumn('distributor_id', 'integer', (c) => c.notNull().references('users.id'))
    .addColumn('order_id', 'integer', (c) => c.notNull().references('orders.id'))
    .addColumn('buyer_id', 'integer', (c) => c.notNull().references('users.id'))
    // `earn` (amount > 0, written when the order is paid) or `reversal` (amount < 0, written by its refund).
    .addColumn('kind', 'varchar(16)', (c) => c.notNull())
    .addColumn('amount', 'bigint', (c) => c.notNull())
    .addColumn('currency', 'varchar(3)', (c) => c.notNull())
    .addColumn('rate', 'double precision', (c) => c.notNull())
    .addColumn('available_at', 'varchar(32)', (c) => c.notNull())
    // A refund while the commission was still pending voids it instead of writing a reversal.
    .addColumn('voided_at', 'varchar(32)')
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .execute();
  // One commission per order, and at most one reversal (an order is refunded once): the second writer's insert does nothing.
  await db.schema.createIndex('commissions_order_kind_uq').on('commissions').columns(['order_id', 'kind']).unique().execute();
  await db.schema.createIndex('commissions_distributor_idx').on('commissions').columns(['distributor_id', 'available_at']).execute();
  await db.schema.createIndex('commissions_created_idx').on('commissions').columns(['created_at']).execute();

  await db.schema
    .createTable('payoff_requests')
    .addColumn('id', id, pk)
    .addColumn('distributor_id', 'integer', (c) => c.notNull().references('users.id'))
    .addColumn('amount', 'bigint', (c) => c.notNull())
    .addColumn('currency', 'varchar(3)', (c) => c.notNull())
    .addColumn('method', 'varchar(16)', (c) => c.notNull())
    .addColumn('account', 'varchar(200)', (c) => c.notNull())
    // pending → approved → paid; pending | approved → rejected.
    .addColumn('status', 'varchar(16)', (c) => c.notNull())
    .addColumn('note', 'varchar(500)')
    .addColumn('tx_ref', 'varchar(200)')
    .addColumn('decided_by', 'integer', (c) => c.references('users.id'))
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('updated_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('approved_at', 'varchar(32)')
    .addColumn('paid_at', 'varchar(32)')
    .addColumn('rejected_at', 'varchar(32)')
    .execute();
  // At most one open request per distributor: of requests racing, the store admits one.
  await sql`create unique index payoff_requests_open_uq on payoff_requests (distributor_id) where status in ('pending', 'approved')`.execute(db);
  await db.schema.createIndex('payoff_requests_distributor_idx').on('payoff_requests').columns(['distributor_id', 'created_at']).execute();
  await db.schema.createIndex('payoff_requests_status_idx').on('payoff_requests').columns(['status', 'created_at']).execute();

  await db.schema
    .createTable('channel_visits')
    .addColumn('id', id, pk)
    .addColumn('channel_key', 'varchar(8)', (c) => c.notNull())
    .addColumn('channel_value', 'varchar(64)', (c) => c.notNull())
    // The user whose invite code came with the landing, when it named one.
    .addColumn('referrer_id', 'integer', (c) => c.references('users.id'))
    .addColumn('day', 'varchar(10)', (c) => c.notNull())
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('channel_visits_day_idx').on('channel_visits').columns(['day', 'channel_key', 'channel_value']).execute();
  await db.schema.createIndex('channel_visits_referrer_idx').on('channel_visits').columns(['referrer_id', 'day']).execute();

  await db.schema.alterTable('users').addColumn('distributor_remark', 'varchar(200)').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('users').dropColumn('distributor_remark').execute();
  for (const t of ['channel_visits', 'payoff_requests', 'commissions']) await db.schema.dropTable(t).execute();
}

import { type Kysely, PostgresAdapter } from 'kysely';

// Frozen in time: never import app code here.

/**
 * Customer webhooks (docs/api.md#webhooks):
 * - `webhook_endpoints`: a customer's receiver URL, the events it takes (comma-separated) and its signing
 *   secret, sealed with a key derived from APP_SECRET (the server must sign with it, so it cannot be hashed).
 *   Deleting an endpoint deletes it and its deliveries.
 * - `webhook_deliveries`: one event for one endpoint, the outbox and the log at once: inserted `pending` in the
 *   transaction of the change it reports, sent by the delivery job, retried until `delivered` or `failed`.
 *   `body` is the exact JSON sent; `event_id` is the same in every retry and replay of the event.
 * - `webhook_event_keys`: events that must be emitted once only (a static IP expiring soon, once per expiry).
 */
export async function up(db: Kysely<any>): Promise<void> {
  const isPg = db.getExecutor().adapter instanceof PostgresAdapter;
  const id = (t: string) => db.schema.createTable(t).addColumn('id', isPg ? 'serial' : 'integer', (c) => (isPg ? c.primaryKey() : c.primaryKey().autoIncrement()));

  await id('webhook_endpoints')
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('url', 'varchar(2000)', (c) => c.notNull())
    .addColumn('events', 'varchar(200)', (c) => c.notNull())
    .addColumn('secret_sealed', 'text', (c) => c.notNull())
    .addColumn('enabled', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('updated_at', 'varchar(32)', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('webhook_endpoints_user_idx').on('webhook_endpoints').column('user_id').execute();

  await id('webhook_deliveries')
    .addColumn('endpoint_id', 'integer', (c) => c.notNull().references('webhook_endpoints.id').onDelete('cascade'))
    .addColumn('event', 'varchar(32)', (c) => c.notNull())
    .addColumn('event_id', 'varchar(64)', (c) => c.notNull())
    .addColumn('body', 'text', (c) => c.notNull())
    .addColumn('status', 'varchar(16)', (c) => c.notNull())
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('next_attempt_at', 'varchar(32)')
    .addColumn('last_attempt_at', 'varchar(32)')
    .addColumn('last_status_code', 'integer')
    .addColumn('last_response', 'text')
    .addColumn('last_error', 'varchar(500)')
    .addColumn('replay_of', 'integer')
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('delivered_at', 'varchar(32)')
    .execute();
  // The delivery job's question: pending rows due by now.
  await db.schema.createIndex('webhook_deliveries_due_idx').on('webhook_deliveries').columns(['status', 'next_attempt_at']).execute();
  // An endpoint's log, newest first.
  await db.schema.createIndex('webhook_deliveries_endpoint_idx').on('webhook_deliveries').columns(['endpoint_id', 'id']).execute();
  // Pruning old deliveries.
  await db.schema.createIndex('webhook_deliveries_created_idx').on('webhook_deliveries').column('created_at').execute();

  await db.schema
    .createTable('webhook_event_keys')
    .addColumn('event_key', 'varchar(200)', (c) => c.primaryKey())
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('webhook_event_keys').execute();
  await db.schema.dropTable('webhook_deliveries').execute();
  await db.schema.dropTable('webhook_endpoints').execute();
}

import { type Kysely, PostgresAdapter } from 'kysely';

// Frozen in time: never import app code here.

/**
 * The customer's API keys (docs/api.md#programs):
 * - `api_keys`: a named credential with scopes, stored as the SHA-256 of its secret; `prefix` names it in
 *   lists and logs. `allowlist` is a JSON array of canonical addresses (empty: any caller). A revoked key keeps
 *   its row (`revoked_at`), so what it did can still be traced to it.
 * - `api_key_days`: requests per key and UTC day, added to by every API process from its own counts.
 * - `orders.api_key_id`: the key that placed an order, so a key's spending today is one indexed sum.
 */
export async function up(db: Kysely<any>): Promise<void> {
  const isPg = db.getExecutor().adapter instanceof PostgresAdapter;
  await db.schema
    .createTable('api_keys')
    .addColumn('id', isPg ? 'serial' : 'integer', (c) => (isPg ? c.primaryKey() : c.primaryKey().autoIncrement()))
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('name', 'varchar(64)', (c) => c.notNull())
    .addColumn('prefix', 'varchar(16)', (c) => c.notNull())
    .addColumn('key_hash', 'varchar(64)', (c) => c.notNull().unique())
    .addColumn('scopes', 'varchar(64)', (c) => c.notNull())
    .addColumn('allowlist', 'text', (c) => c.notNull())
    .addColumn('daily_spend_cap', 'integer')
    .addColumn('expires_at', 'varchar(32)')
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('revoked_at', 'varchar(32)')
    .addColumn('last_used_at', 'varchar(32)')
    .addColumn('last_used_ip', 'varchar(64)')
    .execute();
  await db.schema.createIndex('api_keys_user_idx').on('api_keys').column('user_id').execute();

  await db.schema
    .createTable('api_key_days')
    .addColumn('key_id', 'integer', (c) => c.notNull().references('api_keys.id').onDelete('cascade'))
    .addColumn('day', 'varchar(10)', (c) => c.notNull())
    .addColumn('calls', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('api_key_days_pk', ['key_id', 'day'])
    .execute();

  await db.schema.alterTable('orders').addColumn('api_key_id', 'integer').execute();
  await db.schema.createIndex('orders_api_key_idx').on('orders').columns(['api_key_id', 'created_at']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('orders_api_key_idx').execute();
  await db.schema.alterTable('orders').dropColumn('api_key_id').execute();
  await db.schema.dropTable('api_key_days').execute();
  await db.schema.dropTable('api_keys').execute();
}

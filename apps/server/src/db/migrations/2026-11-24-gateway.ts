import { type Kysely, PostgresAdapter } from 'kysely';

// Frozen in time: never import app code here; types valid on SQLite and PostgreSQL alike.
export async function up(db: Kysely<any>): Promise<void> {
  const isPg = db.getExecutor().adapter instanceof PostgresAdapter;
  const id = isPg ? 'serial' : 'integer';
  const pk = (c: any) => (isPg ? c.primaryKey() : c.primaryKey().autoIncrement());

  await db.schema
    .createTable('proxy_accounts')
    .addColumn('id', id, pk)
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('username', 'varchar(32)', (c) => c.notNull().unique())
    // Sealed, not hashed: customers read their proxy passwords back to build proxy lines.
    .addColumn('password_sealed', 'varchar(255)', (c) => c.notNull())
    .addColumn('status', 'varchar(16)', (c) => c.notNull().defaultTo('active'))
    .addColumn('limit_bytes', 'bigint')
    .addColumn('used_bytes', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('remark', 'varchar(100)')
    .addColumn('deleted_at', 'varchar(32)')
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('updated_at', 'varchar(32)', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('proxy_accounts_user_idx').on('proxy_accounts').column('user_id').execute();

  await db.schema
    .createTable('usage_hourly')
    .addColumn('id', id, pk)
    .addColumn('account_id', 'integer', (c) => c.notNull().references('proxy_accounts.id').onDelete('cascade'))
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('hour', 'varchar(32)', (c) => c.notNull())
    // '' when the exit had no country, so the unique key below holds (NULLs never collide).
    .addColumn('country', 'varchar(2)', (c) => c.notNull().defaultTo(''))
    .addColumn('bytes_up', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('bytes_down', 'bigint', (c) => c.notNull().defaultTo(0))
    .addUniqueConstraint('usage_hourly_uq', ['account_id', 'hour', 'country'])
    .execute();
  await db.schema.createIndex('usage_hourly_user_idx').on('usage_hourly').columns(['user_id', 'hour']).execute();

  // One row per applied gateway flush: a retried batch finds its row and changes nothing.
  await db.schema
    .createTable('usage_flushes')
    .addColumn('gateway_id', 'varchar(64)', (c) => c.notNull())
    .addColumn('seq', 'bigint', (c) => c.notNull())
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .addPrimaryKeyConstraint('usage_flushes_pk', ['gateway_id', 'seq'])
    .execute();

  await db.schema
    .createTable('upstreams')
    .addColumn('id', id, pk)
    .addColumn('protocol', 'varchar(8)', (c) => c.notNull())
    .addColumn('host', 'varchar(253)', (c) => c.notNull())
    .addColumn('port', 'integer', (c) => c.notNull())
    .addColumn('username', 'varchar(200)')
    .addColumn('password_sealed', 'varchar(512)')
    .addColumn('country', 'varchar(2)')
    .addColumn('state', 'varchar(32)')
    .addColumn('city', 'varchar(32)')
    .addColumn('enabled', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('remark', 'varchar(100)')
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('updated_at', 'varchar(32)', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('settings')
    .addColumn('key', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('value', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'varchar(32)', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const t of ['settings', 'upstreams', 'usage_flushes', 'usage_hourly', 'proxy_accounts']) await db.schema.dropTable(t).execute();
}

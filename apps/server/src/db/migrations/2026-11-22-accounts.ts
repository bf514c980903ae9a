import { type Kysely, PostgresAdapter } from 'kysely';

// Frozen in time: never import app code here; types valid on SQLite and PostgreSQL alike.
export async function up(db: Kysely<any>): Promise<void> {
  const isPg = isPostgres(db);
  const id = isPg ? 'serial' : 'integer';

  await db.schema
    .createTable('users')
    .addColumn('id', id, (c) => (isPg ? c.primaryKey() : c.primaryKey().autoIncrement()))
    .addColumn('email', 'varchar(254)', (c) => c.notNull().unique())
    .addColumn('account', 'varchar(32)', (c) => c.unique())
    .addColumn('password_hash', 'varchar(255)', (c) => c.notNull())
    .addColumn('role', 'varchar(16)', (c) => c.notNull().defaultTo('customer'))
    .addColumn('is_distributor', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('status', 'varchar(16)', (c) => c.notNull().defaultTo('active'))
    .addColumn('invite_code', 'varchar(32)', (c) => c.notNull().unique())
    .addColumn('referrer_id', 'integer', (c) => c.references('users.id'))
    .addColumn('channel_key', 'varchar(64)')
    .addColumn('channel_value', 'varchar(64)')
    .addColumn('lang', 'varchar(8)', (c) => c.notNull().defaultTo('en'))
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('last_login_at', 'varchar(32)')
    .execute();
  await db.schema.createIndex('users_referrer_idx').on('users').column('referrer_id').execute();
  await db.schema.createIndex('users_channel_idx').on('users').columns(['channel_key', 'channel_value']).execute();

  await db.schema
    .createTable('sessions')
    .addColumn('id', id, (c) => (isPg ? c.primaryKey() : c.primaryKey().autoIncrement()))
    .addColumn('token_hash', 'varchar(64)', (c) => c.notNull().unique())
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('last_seen_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('expires_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('ip', 'varchar(64)')
    .addColumn('user_agent', 'varchar(512)')
    .execute();
  await db.schema.createIndex('sessions_user_idx').on('sessions').column('user_id').execute();

  await db.schema
    .createTable('captchas')
    .addColumn('id', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('answer_hash', 'varchar(64)', (c) => c.notNull())
    .addColumn('expires_at', 'varchar(32)', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('mail_codes')
    .addColumn('id', id, (c) => (isPg ? c.primaryKey() : c.primaryKey().autoIncrement()))
    .addColumn('email', 'varchar(254)', (c) => c.notNull())
    .addColumn('purpose', 'varchar(16)', (c) => c.notNull())
    .addColumn('code_hash', 'varchar(64)', (c) => c.notNull())
    .addColumn('tries', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('ip', 'varchar(64)')
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('expires_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('consumed_at', 'varchar(32)')
    .execute();
  await db.schema.createIndex('mail_codes_email_idx').on('mail_codes').columns(['email', 'purpose', 'created_at']).execute();
  await db.schema.createIndex('mail_codes_ip_idx').on('mail_codes').columns(['ip', 'created_at']).execute();

  await db.schema
    .createTable('login_logs')
    .addColumn('id', id, (c) => (isPg ? c.primaryKey() : c.primaryKey().autoIncrement()))
    .addColumn('user_id', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('account', 'varchar(254)', (c) => c.notNull())
    .addColumn('ip', 'varchar(64)')
    .addColumn('user_agent', 'varchar(512)')
    .addColumn('result', 'varchar(32)', (c) => c.notNull())
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('login_logs_account_idx').on('login_logs').columns(['account', 'created_at']).execute();
  await db.schema.createIndex('login_logs_ip_idx').on('login_logs').columns(['ip', 'created_at']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const t of ['login_logs', 'mail_codes', 'captchas', 'sessions', 'users']) await db.schema.dropTable(t).execute();
}

function isPostgres(db: Kysely<any>): boolean {
  return db.getExecutor().adapter instanceof PostgresAdapter;
}

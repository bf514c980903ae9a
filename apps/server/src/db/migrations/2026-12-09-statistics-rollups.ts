import { type Kysely, PostgresAdapter, sql } from 'kysely';

// Frozen in time: never import app code here.

/** An order that counts as a user's payment: paid (or paid, then refunded) for a non-zero amount. */
const PAYMENT = `new.paid_at is not null and new.amount > 0 and new.status in ('paid', 'refunded')`;
const SET_FIRST = `update users set first_paid_at = new.paid_at where id = new.user_id and (first_paid_at is null or first_paid_at > new.paid_at)`;

/**
 * Two roll-ups for the admin's Statistics (docs/data-model.md#statistics-roll-ups), which reads up to 400 days
 * over every customer; computing both from the raw rows made a 90-day report cost hundreds of milliseconds.
 * And the order desk's index by creation time.
 *
 * - `usage_daily`: metered bytes per UTC day, user and exit country, written by the same transaction as the
 *   hourly rows. Existing hourly rows are rolled up once here.
 * - `users.first_paid_at`: the time of a user's first payment, for "new paying users". Kept by a trigger on
 *   orders, as change_version is, so no way an order becomes paid (four payment methods, the admin's
 *   verification, a grant, a seed) can forget it; it only ever moves earlier, and a refund keeps it (the
 *   user did pay).
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('usage_daily')
    .addColumn('day', 'varchar(10)', (c) => c.notNull())
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('country', 'varchar(2)', (c) => c.notNull().defaultTo(''))
    .addColumn('bytes_up', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('bytes_down', 'bigint', (c) => c.notNull().defaultTo(0))
    .addPrimaryKeyConstraint('usage_daily_pk', ['day', 'user_id', 'country'])
    .execute();
  await sql`insert into usage_daily (day, user_id, country, bytes_up, bytes_down)
    select substr(hour, 1, 10), user_id, country, sum(bytes_up), sum(bytes_down) from usage_hourly group by substr(hour, 1, 10), user_id, country`.execute(db);
  // Only Statistics read hourly rows by time alone; it reads the roll-up now.
  await db.schema.dropIndex('usage_hourly_hour_idx').execute();

  await db.schema.alterTable('users').addColumn('first_paid_at', 'varchar(32)').execute();
  await sql`update users set first_paid_at = (
    select min(o.paid_at) from orders o where o.user_id = users.id and o.paid_at is not null and o.amount > 0 and o.status in ('paid', 'refunded'))`.execute(db);
  await db.schema.createIndex('users_first_paid_idx').on('users').column('first_paid_at').execute();
  // First payments were found through each user's orders by paid time; the column above replaces that.
  await db.schema.dropIndex('orders_user_paid_idx').execute();
  // The admin's order desk pages and filters by creation time (newest first); without it every page read
  // every order.
  await db.schema.createIndex('orders_created_idx').on('orders').columns(['created_at', 'id']).execute();
  if (db.getExecutor().adapter instanceof PostgresAdapter) {
    await sql
      .raw(
        `create function keep_first_paid_at() returns trigger language plpgsql as $$
        begin
          if ${PAYMENT} then ${SET_FIRST}; end if;
          return null;
        end $$`,
      )
      .execute(db);
    await sql.raw('create trigger orders_first_paid after insert or update of status, paid_at, amount on orders for each row execute function keep_first_paid_at()').execute(db);
    return;
  }
  await sql.raw(`create trigger orders_first_paid_insert after insert on orders for each row when ${PAYMENT} begin ${SET_FIRST}; end`).execute(db);
  await sql.raw(`create trigger orders_first_paid_update after update of status, paid_at, amount on orders for each row when ${PAYMENT} begin ${SET_FIRST}; end`).execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  if (db.getExecutor().adapter instanceof PostgresAdapter) {
    await sql.raw('drop trigger if exists orders_first_paid on orders').execute(db);
    await sql.raw('drop function if exists keep_first_paid_at()').execute(db);
  } else {
    for (const name of ['orders_first_paid_insert', 'orders_first_paid_update']) await sql.raw(`drop trigger if exists ${name}`).execute(db);
  }
  await db.schema.dropIndex('orders_created_idx').execute();
  await db.schema.createIndex('orders_user_paid_idx').on('orders').columns(['user_id', 'paid_at']).execute();
  await db.schema.dropIndex('users_first_paid_idx').execute();
  await db.schema.alterTable('users').dropColumn('first_paid_at').execute();
  await db.schema.createIndex('usage_hourly_hour_idx').on('usage_hourly').column('hour').execute();
  await db.schema.dropTable('usage_daily').execute();
}

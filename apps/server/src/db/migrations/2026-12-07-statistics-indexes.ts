import type { Kysely } from 'kysely';

// Frozen in time: never import app code here.

/**
 * Indexes for the admin's Statistics (docs/business-rules.md#statistics), which reads ranges of times:
 * orders by paid time (covering every column the figures read, so a 90-day report is an index range scan),
 * each user's first paid order, refunds by refund time and usage by hour. Users by sign-up use
 * `users_created_idx` of 2026-12-05-user-admin.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.createIndex('orders_paid_idx').on('orders').columns(['paid_at', 'status', 'currency', 'amount', 'user_id', 'pay_method', 'kind']).execute();
  await db.schema.createIndex('orders_user_paid_idx').on('orders').columns(['user_id', 'paid_at']).execute();
  await db.schema.createIndex('orders_refund_idx').on('orders').columns(['status', 'updated_at']).execute();
  await db.schema.createIndex('usage_hourly_hour_idx').on('usage_hourly').column('hour').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const name of ['usage_hourly_hour_idx', 'orders_refund_idx', 'orders_user_paid_idx', 'orders_paid_idx']) await db.schema.dropIndex(name).execute();
}

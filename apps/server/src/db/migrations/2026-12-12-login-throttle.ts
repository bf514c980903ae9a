import type { Kysely } from 'kysely';

// Frozen in time: never import app code here.

/**
 * Login throttle per account (docs/business-rules.md#login): once an account has failed too often from any
 * addresses, only addresses it has proven itself from may still try its password. `login_addresses` holds
 * them: an address that signed in to the account, registered it, or reset its password with a mailed code.
 * Filled once from the successful sign-ins already logged. `(account, created_at)` and `(user_id, created_at)`
 * on login_logs already serve the count of an account's recent failures.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('login_addresses')
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('ip', 'varchar(64)', (c) => c.notNull())
    .addColumn('last_at', 'varchar(32)', (c) => c.notNull())
    .addPrimaryKeyConstraint('login_addresses_pk', ['user_id', 'ip'])
    .execute();
  await db
    .insertInto('login_addresses')
    .columns(['user_id', 'ip', 'last_at'])
    .expression((eb) =>
      eb
        .selectFrom('login_logs')
        .select(['user_id', 'ip', (e) => e.fn.max('created_at').as('last_at')])
        .where('result', '=', 'success')
        .where('user_id', 'is not', null)
        .where('ip', 'is not', null)
        .groupBy(['user_id', 'ip']),
    )
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('login_addresses').execute();
}

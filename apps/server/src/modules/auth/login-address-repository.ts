import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../../db/schema';

/** Addresses an account proved itself from (docs/business-rules.md#login): the throttle lets them through. */
export class LoginAddressRepository {
  constructor(private readonly db: Kysely<Database>) {}

  async remember(userId: number, ip: string, at: string, trx?: Transaction<Database>): Promise<void> {
    await (trx ?? this.db)
      .insertInto('login_addresses')
      .values({ user_id: userId, ip, last_at: at })
      .onConflict((oc) => oc.columns(['user_id', 'ip']).doUpdateSet({ last_at: at }))
      .execute();
  }

  async knows(userId: number, ip: string, since: string): Promise<boolean> {
    const row = await this.db
      .selectFrom('login_addresses')
      .select('user_id')
      .where('user_id', '=', userId)
      .where('ip', '=', ip)
      .where('last_at', '>', since)
      .executeTakeFirst();
    return row !== undefined;
  }
}

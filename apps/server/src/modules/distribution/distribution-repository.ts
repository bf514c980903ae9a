import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema';

/** A distributor's side of the store: the customers they brought in. */
export class DistributionRepository {
  constructor(private readonly db: Kysely<Database>) {}

  /** Users who registered with this user's invite code. */
  async referralCount(userId: number): Promise<number> {
    const { n } = await this.db
      .selectFrom('users')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('referrer_id', '=', userId)
      .executeTakeFirstOrThrow();
    return Number(n);
  }
}

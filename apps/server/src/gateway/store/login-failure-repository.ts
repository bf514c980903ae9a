import { type Kysely, sql } from 'kysely';
import type { Database } from '../../db/schema';
import type { LoginFailureCount, LoginFailureSink } from '../ports';

/** Adds the gateways' counts of failed logins to each proxy account, for its owner to see. */
export class LoginFailureRepository implements LoginFailureSink {
  constructor(private readonly db: Kysely<Database>) {}

  async recordLoginFailures(counts: LoginFailureCount[]): Promise<void> {
    // One statement per account, in id order (as the usage flush locks them), so gateways never deadlock.
    const ordered = [...counts].sort((a, b) => a.accountId - b.accountId);
    await this.db.transaction().execute(async (trx) => {
      for (const c of ordered) {
        const at = new Date(c.lastAt).toISOString();
        await trx
          .updateTable('proxy_accounts')
          .set({
            login_failures: sql<number>`login_failures + ${c.failures}`,
            // ISO 8601 UTC strings sort as time: keep the latest whichever gateway reports last.
            last_login_failure_at: sql<string>`case when last_login_failure_at is null or last_login_failure_at < ${at} then ${at} else last_login_failure_at end`,
          })
          .where('id', '=', c.accountId)
          .execute();
      }
    });
  }
}

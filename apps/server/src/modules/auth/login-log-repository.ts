import type { LoginResult } from '@resi/contract';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema';

/** The results that count towards a lockout: a password was checked and did not open an account. */
const LOCKOUT_FAILURES: LoginResult[] = ['bad-password', 'unknown-account'];

export class LoginLogRepository {
  constructor(private readonly db: Kysely<Database>) {}

  async add(row: { userId: number | null; account: string; ip: string | null; userAgent: string | null; result: LoginResult; at: string }) {
    await this.db
      .insertInto('login_logs')
      .values({
        user_id: row.userId,
        account: row.account.slice(0, 254),
        ip: row.ip,
        user_agent: row.userAgent?.slice(0, 512) ?? null,
        result: row.result,
        created_at: row.at,
      })
      .execute();
  }

  /**
   * Times of the recent failures, newest first, of what `by` names: an account name, a user (by either of
   * their names), an IP (null: attempts without one), or an account name from one IP.
   */
  async failuresSince(by: { account?: string; userId?: number; ip?: string | null }, since: string, limit: number): Promise<string[]> {
    let query = this.db.selectFrom('login_logs').select('created_at').where('result', 'in', LOCKOUT_FAILURES).where('created_at', '>', since);
    if (by.ip !== undefined) query = query.where('ip', by.ip === null ? 'is' : '=', by.ip);
    if (by.account !== undefined) query = query.where('account', '=', by.account);
    if (by.userId !== undefined) query = query.where('user_id', '=', by.userId);
    const rows = await query.orderBy('created_at', 'desc').limit(limit).execute();
    return rows.map((r) => r.created_at);
  }
}

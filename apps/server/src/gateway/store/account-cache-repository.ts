import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema';
import { balanceQuery } from '../../modules/traffic/traffic-repository';

export interface AccountRow {
  id: number;
  user_id: number;
  username: string;
  password_sealed: string;
  status: string;
  limit_bytes: number | null;
  used_bytes: number;
  max_connections: number | null;
  user_status: string;
  seen: number | string | null;
}

/** The reads behind the gateway's account cache (account-cache.ts): accounts and balances, whole or one user's. */
export class AccountCacheRepository {
  constructor(private readonly db: Kysely<Database>) {}

  accounts(gatewayId: string, userId?: number): Promise<AccountRow[]> {
    let q = this.db
      .selectFrom('proxy_accounts as a')
      .innerJoin('users as u', 'u.id', 'a.user_id')
      .select(['a.id', 'a.user_id', 'a.username', 'a.password_sealed', 'a.status', 'a.limit_bytes', 'a.used_bytes', 'a.max_connections', 'u.status as user_status'])
      .select(this.seen(gatewayId))
      .where('a.deleted_at', 'is', null);
    if (userId !== undefined) q = q.where('a.user_id', '=', userId);
    return q.execute();
  }

  /** Balances by the one formula (traffic-repository.ts), with the batches they include. */
  balances(gatewayId: string, now: string, userId?: number) {
    let q = balanceQuery(this.db, now).select(this.seen(gatewayId));
    if (userId !== undefined) q = q.where('user_id', '=', userId);
    return q.execute();
  }

  /**
   * The last of this gateway's usage batches, read in the same statement as the figures: a statement
   * sees one snapshot (both dialects), so the figures include exactly the batches up to this one. The
   * gateway subtracts only its bytes metered after it (meter.ts `unseenOf…`): nothing twice, nothing missed.
   */
  private seen(gatewayId: string) {
    return this.db
      .selectFrom('usage_flushes')
      .select((e) => e.fn.coalesce(e.fn.max('seq'), e.lit(0)).as('s'))
      .where('gateway_id', '=', gatewayId)
      .as('seen');
  }
}

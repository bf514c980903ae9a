import { type Kysely, sql } from 'kysely';
import type { Database } from '../../db/schema';

export interface GrantRow {
  id: number;
  order_no: string | null;
  bytes: number;
  used_bytes: number;
  expires_at: string;
  created_at: string;
}

export class TrafficRepository {
  constructor(private readonly db: Kysely<Database>) {}

  /** Grants not yet expired, the one that expires first first: usage is taken from it (DESIGN §4). */
  liveGrants(userId: number, now: string): Promise<GrantRow[]> {
    return this.db
      .selectFrom('traffic_grants as g')
      .leftJoin('orders as o', 'o.id', 'g.order_id')
      .select(['g.id', 'o.order_no', 'g.bytes', 'g.used_bytes', 'g.expires_at', 'g.created_at'])
      .where('g.user_id', '=', userId)
      .where('g.expires_at', '>', now)
      .orderBy('g.expires_at')
      .orderBy('g.id')
      .execute();
  }

  async usedBytes(userId: number): Promise<number> {
    const { used } = await this.db
      .selectFrom('traffic_grants')
      .select((eb) => eb.fn.coalesce(eb.fn.sum<number>('used_bytes'), eb.lit(0)).as('used'))
      .where('user_id', '=', userId)
      .executeTakeFirstOrThrow();
    return Number(used);
  }
}

/**
 * The time bucket of a `usage_hourly as u` row: the stored ISO hour, or for days its first 10 characters,
 * the UTC date (the same on both dialects).
 */
export function usageBucket(granularity: 'hour' | 'day') {
  return granularity === 'hour' ? sql<string>`u.hour` : sql<string>`substr(u.hour, 1, 10)`;
}

export interface UsageRow {
  bucket: string;
  bytes_up: number;
  bytes_down: number;
}

/** Usage rows of one user since `since` (an hour bucket), optionally of one of their proxy accounts. */
export class UsageRepository {
  constructor(private readonly db: Kysely<Database>) {}

  private base(userId: number, since: string, accountId?: number) {
    let q = this.db.selectFrom('usage_hourly as u').where('u.user_id', '=', userId).where('u.hour', '>=', since);
    if (accountId) q = q.where('u.account_id', '=', accountId);
    return q;
  }

  series(userId: number, since: string, granularity: 'hour' | 'day', accountId?: number): Promise<UsageRow[]> {
    const bucket = usageBucket(granularity);
    return this.base(userId, since, accountId)
      .select([bucket.as('bucket'), (eb) => eb.fn.sum<number>('u.bytes_up').as('bytes_up'), (eb) => eb.fn.sum<number>('u.bytes_down').as('bytes_down')])
      .groupBy(bucket)
      .orderBy(bucket)
      .execute();
  }

  byCountry(userId: number, since: string, accountId?: number) {
    return this.base(userId, since, accountId)
      .select(['u.country', (eb) => eb.fn.sum<number>(eb('u.bytes_up', '+', eb.ref('u.bytes_down'))).as('bytes')])
      .groupBy('u.country')
      .orderBy('bytes', 'desc')
      .execute();
  }

  byAccount(userId: number, since: string, accountId?: number) {
    return this.base(userId, since, accountId)
      .innerJoin('proxy_accounts as a', 'a.id', 'u.account_id')
      .select(['u.account_id', 'a.username', (eb) => eb.fn.sum<number>(eb('u.bytes_up', '+', eb.ref('u.bytes_down'))).as('bytes')])
      .groupBy(['u.account_id', 'a.username'])
      .orderBy('bytes', 'desc')
      .execute();
  }
}

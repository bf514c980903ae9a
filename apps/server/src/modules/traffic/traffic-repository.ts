import { type Insertable, type Kysely, type Transaction, sql } from 'kysely';
import type { Database, TrafficGrantTable } from '../../db/schema';

export interface GrantRow {
  id: number;
  order_no: string | null;
  bytes: number;
  used_bytes: number;
  expires_at: string;
  created_at: string;
}

/**
 * A user's traffic balance (docs/business-rules.md#traffic-balance): what is left of their grants that have not expired, per user. The
 * one formula of the balance: `GET /traffic`, the audit of a recharge and the gateway's cache read it here.
 * The gateway adds columns to the same statement, so this answers the query rather than its rows.
 */
export function balanceQuery(db: Kysely<Database>, now: string) {
  return db
    .selectFrom('traffic_grants')
    .select(['user_id', (eb) => eb.fn.sum<number>(eb('bytes', '-', eb.ref('used_bytes'))).as('left')])
    .where('expires_at', '>', now)
    .where((eb) => eb('used_bytes', '<', eb.ref('bytes')))
    .groupBy('user_id');
}

export class TrafficRepository {
  constructor(private readonly db: Kysely<Database>) {}

  /** The user's balance in bytes (balanceQuery); 0 when nothing is left. */
  async balance(userId: number, now: string, trx?: Transaction<Database>): Promise<number> {
    const row = await balanceQuery(trx ?? this.db, now)
      .where('user_id', '=', userId)
      .executeTakeFirst();
    return Number(row?.left ?? 0);
  }

  async addGrant(grant: Insertable<TrafficGrantTable>, trx?: Transaction<Database>): Promise<void> {
    await (trx ?? this.db).insertInto('traffic_grants').values(grant).execute();
  }

  /** The grant a paid order made; at most one (a unique index on its order). */
  grantOfOrder(orderId: number, trx?: Transaction<Database>): Promise<{ id: number; bytes: number; used_bytes: number; expires_at: string } | undefined> {
    return (trx ?? this.db).selectFrom('traffic_grants').select(['id', 'bytes', 'used_bytes', 'expires_at']).where('order_id', '=', orderId).executeTakeFirst();
  }

  /**
   * A live grant cut down to what was used of it, so nothing of it is left to spend; answers its size after,
   * or undefined when it had nothing left (expired or used up). One statement against the row as it is when
   * the write gets it, so bytes a gateway bills at the same moment are counted, never lost or taken twice.
   */
  async cutToUsed(grantId: number, now: string, trx: Transaction<Database>): Promise<number | undefined> {
    const row = await trx
      .updateTable('traffic_grants')
      .set((eb) => ({ bytes: eb.ref('used_bytes') }))
      .where('id', '=', grantId)
      .where('expires_at', '>', now)
      .where((eb) => eb('used_bytes', '<', eb.ref('bytes')))
      .returning('bytes')
      .executeTakeFirst();
    return row === undefined ? undefined : Number(row.bytes);
  }

  /** Grants not yet expired, the one that expires first first: usage is taken from it (docs/business-rules.md#traffic-balance). */
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

/**
 * Rotating usage rows of one user since `since` (an hour bucket), optionally of one of their proxy accounts.
 * A static IP's login is metered too, but its traffic is not rotating traffic (it draws no balance): Static
 * Residential shows it per IP, Usage Record tags it.
 */
export class UsageRepository {
  constructor(private readonly db: Kysely<Database>) {}

  private base(userId: number, since: string, accountId?: number) {
    let q = this.db
      .selectFrom('usage_hourly as u')
      .where('u.user_id', '=', userId)
      .where('u.hour', '>=', since)
      .where(({ not, exists, selectFrom }) => not(exists(selectFrom('proxy_accounts as pa').select('pa.id').whereRef('pa.id', '=', 'u.account_id').where('pa.kind', '=', 'static'))));
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

  /** Rotating bytes the user used since `since` (an hour): the pace a balance's run-out date is projected at. */
  async rotatingBytesSince(userId: number, since: string): Promise<number> {
    const row = await this.base(userId, since)
      .select((eb) => eb.fn.sum<number>(eb('u.bytes_up', '+', eb.ref('u.bytes_down'))).as('bytes'))
      .executeTakeFirst();
    return Number(row?.bytes ?? 0);
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

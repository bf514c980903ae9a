import { type Kysely, SqliteAdapter, sql } from 'kysely';
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

export interface BalanceRow {
  user_id: number;
  left: number | string;
  /** The first of the counted grants to expire: the balance drops then without any write. */
  expires_first: string;
  seen: number | string | null;
}

/**
 * Which change versions (the `change_version` the store's triggers stamp; migration
 * 2026-12-01-change-versions) a reader had not seen yet: those from `next` on, and those in `open`
 * (PostgreSQL: transactions still running when it read, which may commit later with a lower version).
 */
export interface Horizon {
  next: number;
  open: number[];
}

/** A user id list is sent in slices of this many: under both stores' limit of bound parameters. */
const SLICE = 1000;

/** The reads behind the gateway's account cache (account-cache.ts): accounts, balances and what changed. */
export class AccountCacheRepository {
  private readonly sqlite: boolean;
  constructor(private readonly db: Kysely<Database>) {
    this.sqlite = db.getExecutor().adapter instanceof SqliteAdapter;
  }

  /**
   * Where the store's changes stand now, and the last of this gateway's usage batches, in one statement.
   * Read before the rows it covers: a change that commits after it is unseen by it and read next time,
   * even if the rows read after it already show it (it is then read twice, never missed).
   */
  async horizon(gatewayId: string): Promise<{ horizon: Horizon; seen: number }> {
    if (this.sqlite) {
      const row = await this.db.selectFrom('change_clock').select(['version', this.seen(gatewayId)]).executeTakeFirstOrThrow();
      return { horizon: { next: Number(row.version) + 1, open: [] }, seen: Number(row.seen) };
    }
    const row = await this.db
      .selectNoFrom([sql<string>`pg_current_snapshot()::text`.as('snapshot'), this.seen(gatewayId)])
      .executeTakeFirstOrThrow();
    // `xmin:xmax:xip,…`: ids from xmax on have not begun; those listed were running.
    const [, xmax, xip] = row.snapshot.split(':');
    return { horizon: { next: Number(xmax), open: xip ? xip.split(',').map(Number) : [] }, seen: Number(row.seen) };
  }

  /** Users with an account, a status or a grant changed in a version `since` had not seen. */
  async changedUsers(since: Horizon): Promise<number[]> {
    const unseen = (column: string) =>
      sql<boolean>`(${sql.ref(column)} >= ${since.next}${since.open.length ? sql` or ${sql.ref(column)} in (${sql.join(since.open)})` : sql``})`;
    // UNION ALL, deduplicated here: with UNION, SQLite merges sorted scans of whole tables instead of
    // searching the version indexes (300 ms at 100,000 accounts instead of under one).
    const rows = await this.db
      .selectFrom('proxy_accounts')
      .select('user_id')
      .where(unseen('change_version'))
      .unionAll(this.db.selectFrom('users').select('id as user_id').where(unseen('change_version')))
      .unionAll(this.db.selectFrom('traffic_grants').select('user_id').where(unseen('change_version')))
      .execute();
    return [...new Set(rows.map((r) => r.user_id))];
  }

  /** Every live account, or those of the given users. */
  async accounts(gatewayId: string, userIds?: number[]): Promise<AccountRow[]> {
    const q = this.db
      .selectFrom('proxy_accounts as a')
      .innerJoin('users as u', 'u.id', 'a.user_id')
      .select(['a.id', 'a.user_id', 'a.username', 'a.password_sealed', 'a.status', 'a.limit_bytes', 'a.used_bytes', 'a.max_connections', 'u.status as user_status'])
      .select(this.seen(gatewayId))
      .where('a.deleted_at', 'is', null)
      // Static IPs' logins are not served until the gateway routes them through their own upstream and
      // leaves the traffic balance alone (docs/business-rules.md#static-residential-ips).
      .where('a.kind', '=', 'rotating');
    if (userIds === undefined) return q.execute();
    return this.sliced(userIds, (ids) => q.where('a.user_id', 'in', ids).execute());
  }

  /** Balances by the one formula (traffic-repository.ts), with when each first drops and the batches it includes. */
  async balances(gatewayId: string, now: string, userIds?: number[]): Promise<BalanceRow[]> {
    const q = balanceQuery(this.db, now)
      .select((eb) => eb.fn.min('expires_at').as('expires_first'))
      .select(this.seen(gatewayId));
    if (userIds === undefined) return q.execute();
    return this.sliced(userIds, (ids) => q.where('user_id', 'in', ids).execute());
  }

  private async sliced<T>(ids: number[], read: (slice: number[]) => Promise<T[]>): Promise<T[]> {
    const out: T[] = [];
    for (let i = 0; i < ids.length; i += SLICE) out.push(...(await read(ids.slice(i, i + SLICE))));
    return out;
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

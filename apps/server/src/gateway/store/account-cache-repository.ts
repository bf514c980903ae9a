import { type Kysely, type Selectable, SqliteAdapter, sql } from 'kysely';
import type { Database, PortLeaseTable } from '../../db/schema';
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
  /** 0 or 1: allowlisted addresses must still send the password. */
  require_password: number;
  /** 0 or 1: the account is refused at its cap (1) or the cap only alerts (0). */
  pause_at_cap: number;
  seen: number | string | null;
  /** `rotating` or `static` (a static IP's login); for a static one, its allocation and the inventory row it exits through. */
  kind: string;
  static: StaticRow | null;
}

/** What the gateway needs of a static IP's allocation (docs/gateway.md#static-ips). */
export interface StaticRow {
  status: string;
  expires_at: string;
  inventory_id: number;
  inventory_status: string;
  protocol: string;
  host: string;
  port: number;
  username: string | null;
  password_sealed: string | null;
  country: string;
}

export interface AllowlistRow {
  id: number;
  user_id: number;
  account_id: number;
  address: string;
}

/** A running port lease, as stored (docs/gateway.md#port-endpoints). */
export type LeaseRow = Selectable<PortLeaseTable>;

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

  /**
   * Every live account, or those of the given users; a static IP's login with its allocation, the
   * inventory row it exits through and its region's country (one unique allocation per login).
   */
  async accounts(gatewayId: string, userIds?: number[]): Promise<AccountRow[]> {
    const q = this.db
      .selectFrom('proxy_accounts as a')
      .innerJoin('users as u', 'u.id', 'a.user_id')
      .leftJoin('static_allocations as s', 's.account_id', 'a.id')
      .leftJoin('static_inventory as i', 'i.id', 's.inventory_id')
      .leftJoin('static_regions as r', 'r.id', 's.region_id')
      .select(['a.id', 'a.user_id', 'a.username', 'a.password_sealed', 'a.status', 'a.limit_bytes', 'a.used_bytes', 'a.max_connections', 'a.kind', 'a.require_password', 'a.pause_at_cap', 'u.status as user_status'])
      .select([
        's.status as s_status',
        's.expires_at as s_expires_at',
        'i.id as i_id',
        'i.status as i_status',
        'i.protocol as i_protocol',
        'i.host as i_host',
        'i.port as i_port',
        'i.username as i_username',
        'i.password_sealed as i_password_sealed',
        'r.country as r_country',
      ])
      .select(this.seen(gatewayId))
      .where('a.deleted_at', 'is', null);
    const read = async (query: typeof q) => (await query.execute()).map(toAccountRow);
    if (userIds === undefined) return read(q);
    return this.sliced(userIds, (ids) => read(q.where('a.user_id', 'in', ids)));
  }

  /** Allowlist entries, all or the given users' (docs/gateway.md#allowlist). */
  async allowlist(userIds?: number[]): Promise<AllowlistRow[]> {
    // As the API counts them (allowlist-repository.ts): a deleted account's or a released static IP's entries hold nothing.
    const q = this.db
      .selectFrom('allowlist_entries as e')
      .innerJoin('proxy_accounts as a', 'a.id', 'e.account_id')
      .leftJoin('static_allocations as s', 's.account_id', 'e.account_id')
      .select(['e.id', 'e.user_id', 'e.account_id', 'e.address'])
      .where('a.deleted_at', 'is', null)
      .where((eb) => eb.or([eb('s.id', 'is', null), eb('s.status', '<>', 'released')]));
    if (userIds === undefined) return q.execute();
    return this.sliced(userIds, (ids) => q.where('e.user_id', 'in', ids).execute());
  }

  /** Port leases still running at `now`, all or the given users' (docs/gateway.md#port-endpoints). */
  async leases(now: string, userIds?: number[]): Promise<LeaseRow[]> {
    const q = this.db.selectFrom('port_leases').select(['protocol', 'port', 'user_id', 'account_id', 'country', 'state', 'city', 'session', 'life_minutes', 'until']).where('until', '>', now);
    if (userIds === undefined) return q.execute();
    return this.sliced(userIds, (ids) => q.where('user_id', 'in', ids).execute());
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

type JoinedRow = Omit<AccountRow, 'static'> & {
  s_status: string | null;
  s_expires_at: string | null;
  i_id: number | null;
  i_status: string | null;
  i_protocol: string | null;
  i_host: string | null;
  i_port: number | null;
  i_username: string | null;
  i_password_sealed: string | null;
  r_country: string | null;
};

function toAccountRow({ s_status, s_expires_at, i_id, i_status, i_protocol, i_host, i_port, i_username, i_password_sealed, r_country, ...a }: JoinedRow): AccountRow {
  // A static login whose allocation is missing (nothing makes one without the other) carries nothing.
  const joined = s_status !== null && i_id !== null;
  const staticRow: StaticRow | null = joined
    ? {
        status: s_status,
        expires_at: s_expires_at!,
        inventory_id: i_id,
        inventory_status: i_status!,
        protocol: i_protocol!,
        host: i_host!,
        port: Number(i_port),
        username: i_username,
        password_sealed: i_password_sealed,
        country: r_country ?? '',
      }
    : null;
  return { ...a, static: staticRow };
}

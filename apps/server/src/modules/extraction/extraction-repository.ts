import { type Kysely, PostgresAdapter, type Selectable, sql } from 'kysely';
import type { Database, PortLeaseTable } from '../../db/schema';
import { balanceQuery } from '../traffic/traffic-repository';

export type PortLease = Selectable<PortLeaseTable>;

/** Whose an extraction key is: a proxy account's, or the customer's static IPs' (`account_id` null). */
export interface KeyOwner {
  user_id: number;
  user_status: string;
  account_id: number | null;
}

/** An account extraction hands lines out for, with what decides how. */
export interface ExtractAccount {
  id: number;
  username: string;
  password_sealed: string;
  status: string;
  require_password: number;
  limit_bytes: number | null;
  used_bytes: number;
  deleted_at: string | null;
}

/** A static IP extraction may list: its login and when it ends. */
export interface ExtractStatic extends ExtractAccount {
  expires_at: string;
  country: string;
  city: string | null;
}

const ACCOUNT_COLUMNS = ['a.id', 'a.username', 'a.password_sealed', 'a.status', 'a.require_password', 'a.limit_bytes', 'a.used_bytes', 'a.deleted_at'] as const;

/** Extraction keys, allowlists as extraction sees them, and port leases (docs/gateway.md#extraction). */
export class ExtractionRepository {
  constructor(private readonly db: Kysely<Database>) {}

  /** Replaces the owner's key (account, or static IPs when `accountId` is null): the old one stops at once. */
  async rotateKey(userId: number, accountId: number | null, keyHash: string, prefix: string, now: string): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      let del = trx.deleteFrom('extract_keys').where('user_id', '=', userId);
      del = accountId === null ? del.where('account_id', 'is', null) : del.where('account_id', '=', accountId);
      await del.execute();
      await trx.insertInto('extract_keys').values({ key_hash: keyHash, user_id: userId, account_id: accountId, prefix, created_at: now }).execute();
    });
  }

  async staticKeyPrefix(userId: number): Promise<string | null> {
    const row = await this.db.selectFrom('extract_keys').select('prefix').where('user_id', '=', userId).where('account_id', 'is', null).executeTakeFirst();
    return row?.prefix ?? null;
  }

  ownerOf(keyHash: string): Promise<KeyOwner | undefined> {
    return this.db
      .selectFrom('extract_keys as k')
      .innerJoin('users as u', 'u.id', 'k.user_id')
      .select(['k.user_id', 'k.account_id', 'u.status as user_status'])
      .where('k.key_hash', '=', keyHash)
      .executeTakeFirst();
  }

  /** A rotating account of the user's (deleted ones too: the caller refuses them). */
  rotatingAccount(userId: number, id: number): Promise<ExtractAccount | undefined> {
    return this.db
      .selectFrom('proxy_accounts as a')
      .select(ACCOUNT_COLUMNS)
      .where('a.id', '=', id)
      .where('a.user_id', '=', userId)
      .where('a.kind', '=', 'rotating')
      .executeTakeFirst();
  }

  /** The user's static IPs that carry traffic now (active, not past their end), soonest to end first. */
  activeStatics(userId: number, now: string): Promise<ExtractStatic[]> {
    return this.db
      .selectFrom('static_allocations as s')
      .innerJoin('proxy_accounts as a', 'a.id', 's.account_id')
      .innerJoin('static_regions as r', 'r.id', 's.region_id')
      .select(ACCOUNT_COLUMNS)
      .select(['s.expires_at', 'r.country', 'r.city'])
      .where('s.user_id', '=', userId)
      .where('s.status', '=', 'active')
      .where('s.expires_at', '>', now)
      .orderBy('s.expires_at')
      .orderBy('s.id')
      .execute();
  }

  /** The allowlisted ranges of these accounts. */
  allowlist(accountIds: number[]): Promise<{ account_id: number; address: string }[]> {
    if (accountIds.length === 0) return Promise.resolve([]);
    return this.db.selectFrom('allowlist_entries').select(['account_id', 'address']).where('account_id', 'in', accountIds).execute();
  }

  async balance(userId: number, now: string): Promise<number> {
    const row = await balanceQuery(this.db, now).where('user_id', '=', userId).executeTakeFirst();
    return Number(row?.left ?? 0);
  }

  /**
   * Leases `sessions.length` ports of `[first, last]`, one per session, lowest first: free ones (never
   * leased, or the lease has ended) and, past `perUser` live leases of this customer, the customer's own
   * oldest — so no customer can hold the whole range and its newest extraction always gets ports. None
   * (an empty list) when the range has too few, or more are asked for than `perUser`. One at a time
   * installation-wide (advisory lock on PostgreSQL; SQLite has one writer), so no port is leased twice.
   */
  async leasePorts(
    protocol: 'http' | 'socks5',
    [first, last]: readonly [number, number],
    lease: Omit<PortLease, 'protocol' | 'port' | 'session'>,
    sessions: (string | null)[],
    now: string,
    perUser: number,
  ): Promise<PortLease[]> {
    if (sessions.length > perUser) return [];
    return this.db.transaction().execute(async (trx) => {
      if (trx.getExecutor().adapter instanceof PostgresAdapter) await sql`select pg_advisory_xact_lock(hashtext('port_leases'))`.execute(trx);
      const live = await trx.selectFrom('port_leases').select(['port', 'user_id', 'until']).where('protocol', '=', protocol).where('until', '>', now).execute();
      const mine = live.filter((r) => r.user_id === lease.user_id).sort((a, b) => (a.until < b.until ? -1 : a.until > b.until ? 1 : a.port - b.port));
      const reclaimed = new Set(mine.slice(0, Math.max(0, mine.length + sessions.length - perUser)).map((r) => r.port));
      const busy = new Set(live.filter((r) => !reclaimed.has(r.port)).map((r) => r.port));
      const free: number[] = [];
      for (let port = first; port <= last && free.length < sessions.length; port++) if (!busy.has(port)) free.push(port);
      // All or none: a caller refused for want of ports holds none of them.
      if (free.length < sessions.length) return [];
      const leased: PortLease[] = [];
      for (const [i, port] of free.entries()) {
        const row: PortLease = { ...lease, protocol, port, session: sessions[i]! };
        await trx
          .insertInto('port_leases')
          .values(row)
          .onConflict((oc) => oc.columns(['protocol', 'port']).doUpdateSet(row))
          .execute();
        leased.push(row);
      }
      return leased;
    });
  }

  /** The port a static IP's login holds on this protocol now, if any. */
  currentLease(protocol: 'http' | 'socks5', accountId: number, now: string): Promise<PortLease | undefined> {
    return this.db.selectFrom('port_leases').selectAll().where('protocol', '=', protocol).where('account_id', '=', accountId).where('until', '>', now).executeTakeFirst();
  }
}

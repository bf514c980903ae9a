import { type Kysely, PostgresAdapter, type Selectable, type Transaction, sql } from 'kysely';
import type { AllowlistEntryTable, Database } from '../../db/schema';

type Trx = Transaction<Database>;
export type AllowlistEntryRow = Selectable<AllowlistEntryTable> & { static_proxy_id: number | null };

/** What an entry may be put on: a customer's rotating account, or the login of one of their static IPs. */
export interface AllowlistTarget {
  accountId: number;
  /** Set for a static IP's login: the allocation the customer knows it by. */
  staticProxyId: number | null;
}

/** Allowlist entries (docs/gateway.md#allowlist); every read and delete is scoped to the owner. */
export class AllowlistRepository {
  constructor(private readonly db: Kysely<Database>) {}

  list(userId: number, filter: { accountId?: number }): Promise<AllowlistEntryRow[]> {
    let q = this.entries(this.db).where('e.user_id', '=', userId);
    if (filter.accountId !== undefined) q = q.where('e.account_id', '=', filter.accountId);
    return q.orderBy('e.id').execute();
  }

  /** A rotating account of the user's, not deleted. */
  async rotatingTarget(userId: number, id: number): Promise<AllowlistTarget | null> {
    const row = await this.db
      .selectFrom('proxy_accounts')
      .select('id')
      .where('id', '=', id)
      .where('user_id', '=', userId)
      .where('kind', '=', 'rotating')
      .where('deleted_at', 'is', null)
      .executeTakeFirst();
    return row ? { accountId: row.id, staticProxyId: null } : null;
  }

  /** A static IP of the user's that is not released. */
  async staticTarget(userId: number, id: number): Promise<AllowlistTarget | null> {
    const row = await this.db
      .selectFrom('static_allocations')
      .select(['id', 'account_id'])
      .where('id', '=', id)
      .where('user_id', '=', userId)
      .where('status', '<>', 'released')
      .executeTakeFirst();
    return row ? { accountId: row.account_id, staticProxyId: row.id } : null;
  }

  /**
   * Adds an entry unless another account's entry overlaps it or the account is full; one at a time
   * installation-wide (on PostgreSQL an advisory lock; SQLite has one writer), so two customers adding
   * overlapping ranges at once cannot both succeed. An identical entry on the same account is answered
   * as it is (a retried call adds nothing).
   */
  async add(
    e: { userId: number; accountId: number; address: string; start: string; end: string; label: string | null; now: string },
    max: number,
  ): Promise<{ entry: AllowlistEntryRow } | { refused: 'TAKEN' | 'FULL' }> {
    return this.db.transaction().execute(async (trx) => {
      if (trx.getExecutor().adapter instanceof PostgresAdapter) await sql`select pg_advisory_xact_lock(hashtext('allowlist_entries'))`.execute(trx);
      // Entries of a deleted account or a released static IP hold nothing: the gateway no longer admits by them.
      const overlapping = await trx
        .selectFrom('allowlist_entries as e')
        .innerJoin('proxy_accounts as a', 'a.id', 'e.account_id')
        .leftJoin('static_allocations as s', 's.account_id', 'e.account_id')
        .select(['e.id', 'e.account_id', 'e.address'])
        .where('e.range_start', '<=', e.end)
        .where('e.range_end', '>=', e.start)
        .where('a.deleted_at', 'is', null)
        .where((eb) => eb.or([eb('s.id', 'is', null), eb('s.status', '<>', 'released')]))
        .execute();
      if (overlapping.some((o) => o.account_id !== e.accountId)) return { refused: 'TAKEN' as const };
      const same = overlapping.find((o) => o.address === e.address);
      if (same) return { entry: await this.byId(trx, same.id) };
      const { n } = await trx
        .selectFrom('allowlist_entries')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('account_id', '=', e.accountId)
        .executeTakeFirstOrThrow();
      if (Number(n) >= max) return { refused: 'FULL' as const };
      const { id } = await trx
        .insertInto('allowlist_entries')
        .values({ user_id: e.userId, account_id: e.accountId, address: e.address, range_start: e.start, range_end: e.end, label: e.label, created_at: e.now })
        .returning('id')
        .executeTakeFirstOrThrow();
      return { entry: await this.byId(trx, id) };
    });
  }

  /** The removed entry, or undefined when the user has no such entry. */
  async remove(userId: number, id: number): Promise<AllowlistEntryRow | undefined> {
    return this.db.transaction().execute(async (trx) => {
      const entry = await this.entries(trx).where('e.id', '=', id).where('e.user_id', '=', userId).executeTakeFirst();
      if (entry) await trx.deleteFrom('allowlist_entries').where('id', '=', id).execute();
      return entry;
    });
  }

  private byId(trx: Trx, id: number): Promise<AllowlistEntryRow> {
    return this.entries(trx).where('e.id', '=', id).executeTakeFirstOrThrow();
  }

  private entries(db: Kysely<Database> | Trx) {
    return db
      .selectFrom('allowlist_entries as e')
      .leftJoin('static_allocations as s', 's.account_id', 'e.account_id')
      .selectAll('e')
      .select('s.id as static_proxy_id');
  }
}

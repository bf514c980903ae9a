import { type Kysely, type Selectable, sql } from 'kysely';
import type { ApiKeyTable, Database } from '../../db/schema';
import { inUserTransaction } from '../../db/user-lock';

export type ApiKeyRow = Selectable<ApiKeyTable>;
/** A key as lists show it: its row, its calls today and what its orders of today add up to. */
export type ApiKeyListRow = ApiKeyRow & { calls_today: number; spent_today: number };

/** Orders that count against a key's daily cap: all placed today but those that ended unpaid. */
const SPENDING = ['pending', 'paid', 'refunded'] as const;

export class ApiKeyRepository {
  constructor(private readonly db: Kysely<Database>) {}

  /**
   * Inserts the key unless its owner already holds `max` live ones (then undefined); parallel requests cannot
   * both take the last place (inUserTransaction).
   */
  async insertWithin(row: Omit<ApiKeyRow, 'id' | 'revoked_at' | 'last_used_at' | 'last_used_ip'>, max: number): Promise<ApiKeyRow | undefined> {
    return inUserTransaction(this.db, row.user_id, async (trx) => {
      const { n } = await trx
        .selectFrom('api_keys')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('user_id', '=', row.user_id)
        .where('revoked_at', 'is', null)
        .executeTakeFirstOrThrow();
      if (Number(n) >= max) return undefined;
      return trx.insertInto('api_keys').values(row).returningAll().executeTakeFirstOrThrow();
    });
  }

  /** The key with this hash, whoever holds it, revoked or not (the caller decides). */
  async findByHash(keyHash: string): Promise<ApiKeyRow | undefined> {
    return this.db.selectFrom('api_keys').selectAll().where('key_hash', '=', keyHash).executeTakeFirst();
  }

  /** A user's keys that are not revoked, newest first, with today's calls and spending (`day`: YYYY-MM-DD, `dayStart`: its first instant). */
  async listLive(userId: number, day: string, dayStart: string): Promise<ApiKeyListRow[]> {
    const rows = await this.db
      .selectFrom('api_keys as k')
      .leftJoin('api_key_days as d', (j) => j.onRef('d.key_id', '=', 'k.id').on('d.day', '=', day))
      .selectAll('k')
      .select((eb) => [
        eb.fn.coalesce('d.calls', sql.lit(0)).as('calls_today'),
        eb
          .selectFrom('orders as o')
          .select((o) => o.fn.coalesce(o.fn.sum<number>('o.amount'), sql.lit(0)).as('s'))
          .whereRef('o.api_key_id', '=', 'k.id')
          .where('o.created_at', '>=', dayStart)
          .where('o.status', 'in', SPENDING)
          .as('spent_today'),
      ])
      .where('k.user_id', '=', userId)
      .where('k.revoked_at', 'is', null)
      .orderBy('k.id', 'desc')
      .execute();
    return rows.map((r) => ({ ...r, calls_today: Number(r.calls_today), spent_today: Number(r.spent_today ?? 0) }));
  }

  /** Revokes a live key of `userId` (any user's when null: the admin); false when there is none. */
  async revoke(id: number, userId: number | null, at: string): Promise<ApiKeyRow | undefined> {
    let q = this.db.updateTable('api_keys').set({ revoked_at: at }).where('id', '=', id).where('revoked_at', 'is', null);
    if (userId !== null) q = q.where('user_id', '=', userId);
    return q.returningAll().executeTakeFirst();
  }

  /** Adds calls counted by this process and moves the last use forward (never back: another process may have written a later one). */
  async recordUse(keyId: number, day: string, calls: number, lastAt: string, lastIp: string): Promise<void> {
    await this.db
      .insertInto('api_key_days')
      .values({ key_id: keyId, day, calls })
      .onConflict((oc) => oc.columns(['key_id', 'day']).doUpdateSet({ calls: sql<number>`api_key_days.calls + excluded.calls` }))
      .execute();
    await this.db
      .updateTable('api_keys')
      .set({ last_used_at: lastAt, last_used_ip: lastIp })
      .where('id', '=', keyId)
      .where((eb) => eb.or([eb('last_used_at', 'is', null), eb('last_used_at', '<', lastAt)]))
      .execute();
  }

  /** What the key's orders of today add up to (`dayStart`: the UTC day's first instant). */
  async spentSince(keyId: number, dayStart: string, trx: Kysely<Database> = this.db): Promise<number> {
    const row = await trx
      .selectFrom('orders')
      .select((eb) => eb.fn.coalesce(eb.fn.sum<number>('amount'), sql.lit(0)).as('s'))
      .where('api_key_id', '=', keyId)
      .where('created_at', '>=', dayStart)
      .where('status', 'in', SPENDING)
      .executeTakeFirstOrThrow();
    return Number(row.s);
  }
}

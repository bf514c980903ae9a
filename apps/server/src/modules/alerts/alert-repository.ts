import type { Kysely, Selectable, Transaction } from 'kysely';
import type { AlertCrossingTable, Database, NoticeTable } from '../../db/schema';

export type CrossingRow = Selectable<AlertCrossingTable>;
export type NoticeRow = Selectable<NoticeTable>;
type Trx = Kysely<Database> | Transaction<Database>;

/** A capped proxy account as alerts measure it. */
export interface CappedAccount {
  id: number;
  username: string;
  limitBytes: number;
  usedBytes: number;
  pauseAtCap: boolean;
}

export class AlertRepository {
  constructor(private readonly db: Kysely<Database>) {}

  settings(userId: number) {
    return this.db.selectFrom('alert_settings').selectAll().where('user_id', '=', userId).executeTakeFirst();
  }

  async saveSettings(userId: number, s: { balance_bytes_left: string; balance_percent_left: string; account_cap_percent: string }, now: string): Promise<void> {
    await this.db
      .insertInto('alert_settings')
      .values({ user_id: userId, ...s, updated_at: now })
      .onConflict((oc) => oc.column('user_id').doUpdateSet({ ...s, updated_at: now }))
      .execute();
  }

  /** Users whose balance or caps may have moved: traffic used since `sinceDay`, or a crossing to re-arm. */
  async candidates(sinceDay: string): Promise<number[]> {
    const rows = await this.db
      .selectFrom('usage_daily')
      .select('user_id')
      .where('day', '>=', sinceDay)
      .union(this.db.selectFrom('alert_crossings').select('user_id'))
      .execute();
    return rows.map((r) => r.user_id);
  }

  /** The bytes of the user's latest traffic grant (its last purchase or recharge); null when it never had one. */
  async lastGrantBytes(userId: number): Promise<number | null> {
    const row = await this.db.selectFrom('traffic_grants').select('bytes').where('user_id', '=', userId).orderBy('created_at', 'desc').orderBy('id', 'desc').executeTakeFirst();
    return row ? Number(row.bytes) : null;
  }

  async cappedAccounts(userId: number): Promise<CappedAccount[]> {
    const rows = await this.db
      .selectFrom('proxy_accounts')
      .select(['id', 'username', 'limit_bytes', 'used_bytes', 'pause_at_cap'])
      .where('user_id', '=', userId)
      .where('kind', '=', 'rotating')
      .where('deleted_at', 'is', null)
      .where('limit_bytes', 'is not', null)
      .execute();
    return rows.map((r) => ({ id: r.id, username: r.username, limitBytes: Number(r.limit_bytes), usedBytes: Number(r.used_bytes), pauseAtCap: Boolean(r.pause_at_cap) }));
  }

  crossings(userId: number): Promise<CrossingRow[]> {
    return this.db.selectFrom('alert_crossings').selectAll().where('user_id', '=', userId).execute();
  }

  /** Records a crossing; false when it is already recorded (another run saw it first). */
  async cross(c: CrossingRow, trx: Trx): Promise<boolean> {
    const row = await trx
      .insertInto('alert_crossings')
      .values(c)
      .onConflict((oc) => oc.columns(['user_id', 'kind', 'subject_id', 'threshold']).doNothing())
      .returning('user_id')
      .executeTakeFirst();
    return row !== undefined;
  }

  async rearm(c: Pick<CrossingRow, 'user_id' | 'kind' | 'subject_id' | 'threshold'>): Promise<void> {
    await this.db
      .deleteFrom('alert_crossings')
      .where('user_id', '=', c.user_id)
      .where('kind', '=', c.kind)
      .where('subject_id', '=', c.subject_id)
      .where('threshold', '=', c.threshold)
      .execute();
  }

  async addNotice(n: Omit<NoticeRow, 'id' | 'read_at'>, trx: Trx): Promise<NoticeRow> {
    return trx.insertInto('notices').values(n).returningAll().executeTakeFirstOrThrow();
  }

  /** The user's latest notices, newest first, and how many are unread. */
  async notices(userId: number, limit: number): Promise<{ items: NoticeRow[]; unread: number }> {
    const [items, unread] = await Promise.all([
      this.db.selectFrom('notices').selectAll().where('user_id', '=', userId).orderBy('id', 'desc').limit(limit).execute(),
      this.db.selectFrom('notices').select((eb) => eb.fn.countAll<number>().as('n')).where('user_id', '=', userId).where('read_at', 'is', null).executeTakeFirstOrThrow(),
    ]);
    return { items, unread: Number(unread.n) };
  }

  /** Marks a notice of the user's read; false when the user has no such notice. */
  async markRead(userId: number, id: number, now: string): Promise<boolean> {
    const row = await this.db.selectFrom('notices').select(['id', 'read_at']).where('id', '=', id).where('user_id', '=', userId).executeTakeFirst();
    if (!row) return false;
    if (row.read_at === null) await this.db.updateTable('notices').set({ read_at: now }).where('id', '=', id).where('read_at', 'is', null).execute();
    return true;
  }
}

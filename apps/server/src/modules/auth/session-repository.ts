import type { CompiledQuery, Insertable, Kysely, Transaction } from 'kysely';
import type { UserRow } from '../../db/rows';
import type { Database, SessionTable } from '../../db/schema';

type Trx = Transaction<Database>;

/** A session found by its token hash, with its user. */
export type SessionWithUser = UserRow & { session_id: number; session_seen_at: string; session_expires_at: string };

export class SessionRepository {
  /** Built once: building a query costs more than SQLite takes to run this one (docs/architecture.md#a-signed-in-requests-own-cost). */
  private readonly findWithUserQuery: CompiledQuery<SessionWithUser>;

  constructor(private readonly db: Kysely<Database>) {
    this.findWithUserQuery = db
      .selectFrom('sessions as s')
      .innerJoin('users as u', 'u.id', 's.user_id')
      .selectAll('u')
      .select(['s.id as session_id', 's.last_seen_at as session_seen_at', 's.expires_at as session_expires_at'])
      .where('s.token_hash', '=', '')
      .compile();
  }

  async insert(session: Insertable<SessionTable>, trx?: Trx): Promise<void> {
    await (trx ?? this.db).insertInto('sessions').values(session).execute();
  }

  /** One query for both: this runs on every signed-in request the session cache cannot answer. */
  async findWithUser(tokenHash: string): Promise<SessionWithUser | undefined> {
    const { rows } = await this.db.executeQuery<SessionWithUser>({ ...this.findWithUserQuery, parameters: [tokenHash] });
    return rows[0];
  }

  async touch(id: number, seenAt: string, expiresAt: string): Promise<void> {
    await this.db.updateTable('sessions').set({ last_seen_at: seenAt, expires_at: expiresAt }).where('id', '=', id).execute();
  }

  async remove(id: number): Promise<void> {
    await this.db.deleteFrom('sessions').where('id', '=', id).execute();
  }

  /** Every session of the user, except the one given. */
  async removeAllOf(userId: number, exceptId: number | null, trx?: Trx): Promise<void> {
    let q = (trx ?? this.db).deleteFrom('sessions').where('user_id', '=', userId);
    if (exceptId !== null) q = q.where('id', '!=', exceptId);
    await q.execute();
  }
}

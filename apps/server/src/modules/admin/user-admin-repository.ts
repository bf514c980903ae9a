import { type Kysely, PostgresAdapter, type Transaction, type Updateable } from 'kysely';
import type { UserRow } from '../../db/rows';
import type { Database, UserTable } from '../../db/schema';

type Trx = Transaction<Database>;

/** The admin's writes to users: standing, role and notes, and the sign-outs that go with them. */
export class UserAdminRepository {
  constructor(private readonly db: Kysely<Database>) {}

  findById(id: number, trx?: Trx): Promise<UserRow | undefined> {
    return (trx ?? this.db).selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst();
  }

  /**
   * Ids of the active admins, read so no concurrent change of an admin's standing can slip past the
   * "last active admin" check: on PostgreSQL the rows are locked (in id order, so two admins changing
   * each other cannot deadlock) and a transaction that waited re-reads them as committed; on SQLite
   * Kysely runs one transaction at a time on its single connection.
   */
  async lockActiveAdmins(trx: Trx): Promise<number[]> {
    let q = trx.selectFrom('users').select('id').where('role', '=', 'admin').where('status', '=', 'active').orderBy('id');
    if (trx.getExecutor().adapter instanceof PostgresAdapter) q = q.forUpdate();
    return (await q.execute()).map((r) => r.id);
  }

  async update(id: number, patch: Updateable<UserTable>, trx: Trx): Promise<void> {
    await trx.updateTable('users').set(patch).where('id', '=', id).execute();
  }

  /** Sets the status of those of `ids` not already in it; answers the ids it changed. */
  async setStatus(ids: number[], status: 'active' | 'disabled', trx: Trx): Promise<number[]> {
    if (ids.length === 0) return [];
    const rows = await trx.updateTable('users').set({ status }).where('id', 'in', ids).where('status', '!=', status).returning('id').execute();
    return rows.map((r) => r.id);
  }

  /** Signs the users out everywhere. */
  async revokeSessions(ids: number[], trx: Trx): Promise<void> {
    if (ids.length === 0) return;
    await trx.deleteFrom('sessions').where('user_id', 'in', ids).execute();
  }
}

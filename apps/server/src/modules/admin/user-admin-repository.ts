import { type Kysely, PostgresAdapter, type Transaction, type Updateable } from 'kysely';
import type { UserRow } from '../../db/rows';
import type { Database, DisabledBy, UserTable } from '../../db/schema';

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

  /**
   * Disables those of `ids` not yet disabled by `by` or above (docs/business-rules.md#referred-users): an
   * admin's disable also takes over a distributor's suspension; a distributor's never touches a disabled
   * user, so it cannot overwrite an admin's. Conditional, so a change committed meanwhile is respected.
   * Answers the ids it changed.
   */
  async disable(ids: number[], by: DisabledBy, trx: Trx): Promise<number[]> {
    if (ids.length === 0) return [];
    const rows = await trx
      .updateTable('users')
      .set({ status: 'disabled', disabled_by: by })
      .where('id', 'in', ids)
      .where((eb) => (by === 'admin' ? eb.or([eb('status', '=', 'active'), eb('disabled_by', 'is', null), eb('disabled_by', '!=', 'admin')]) : eb('status', '=', 'active')))
      .returning('id')
      .execute();
    return rows.map((r) => r.id);
  }

  /** Enables those of `ids` that are disabled: an admin lifts any disable, a distributor only their own suspension. Answers the ids it changed. */
  async enable(ids: number[], by: DisabledBy, trx: Trx): Promise<number[]> {
    if (ids.length === 0) return [];
    const rows = await trx
      .updateTable('users')
      .set({ status: 'active', disabled_by: null })
      .where('id', 'in', ids)
      .where('status', '=', 'disabled')
      .$if(by === 'distributor', (q) => q.where('disabled_by', '=', 'distributor'))
      .returning('id')
      .execute();
    return rows.map((r) => r.id);
  }

  /** Signs the users out everywhere. */
  async revokeSessions(ids: number[], trx: Trx): Promise<void> {
    if (ids.length === 0) return;
    await trx.deleteFrom('sessions').where('user_id', 'in', ids).execute();
  }
}

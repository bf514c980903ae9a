import type { ManageUserQuery } from '@resi/contract';
import type { Kysely } from 'kysely';
import { containsText } from '../../db/like';
import type { Database } from '../../db/schema';
import type { UserRow } from '../../db/rows';

export class UserListRepository {
  constructor(private readonly db: Kysely<Database>) {}

  /** One page of the list; `limit: null` is the CSV export of every matching row. */
  async page(q: ManageUserQuery, limit: number | null = q.pageSize): Promise<{ items: UserRow[]; total: number }> {
    let base = this.db.selectFrom('users');
    if (q.email) base = base.where(containsText('email', q.email.toLowerCase()));
    if (q.role) base = base.where('role', '=', q.role);
    if (q.status) base = base.where('status', '=', q.status);
    const { n } = await base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
    let rows = base.selectAll().orderBy('id', 'desc');
    if (limit !== null) rows = rows.limit(limit).offset((q.page - 1) * q.pageSize);
    return { items: await rows.execute(), total: Number(n) };
  }
}

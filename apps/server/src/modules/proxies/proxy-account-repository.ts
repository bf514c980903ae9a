import type { Insertable, Kysely, Selectable, Updateable } from 'kysely';
import type { Database, ProxyAccountTable } from '../../db/schema';

export type ProxyAccountRow = Selectable<ProxyAccountTable>;

/**
 * A customer's rotating proxy accounts. Every query is scoped to the owner and to kind `rotating` (a
 * static IP's login is managed with its allocation); deleted accounts are kept but never shown.
 */
export class ProxyAccountRepository {
  constructor(private readonly db: Kysely<Database>) {}

  list(userId: number): Promise<ProxyAccountRow[]> {
    return this.live(userId).selectAll().orderBy('id').execute();
  }

  find(userId: number, id: number): Promise<ProxyAccountRow | undefined> {
    return this.live(userId).selectAll().where('id', '=', id).executeTakeFirst();
  }

  async count(userId: number): Promise<number> {
    const { n } = await this.live(userId)
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    return Number(n);
  }

  insert(account: Insertable<ProxyAccountTable>): Promise<ProxyAccountRow> {
    return this.db.insertInto('proxy_accounts').values(account).returningAll().executeTakeFirstOrThrow();
  }

  /** The account after the change, or undefined when the user has no such (undeleted) account. */
  update(userId: number, id: number, patch: Updateable<ProxyAccountTable>): Promise<ProxyAccountRow | undefined> {
    return this.db
      .updateTable('proxy_accounts')
      .set(patch)
      .where('id', '=', id)
      .where('user_id', '=', userId)
      .where('kind', '=', 'rotating')
      .where('deleted_at', 'is', null)
      .returningAll()
      .executeTakeFirst();
  }

  /**
   * Marks the account deleted and disabled, and drops its allowlist (the addresses are free for another
   * account, docs/gateway.md#allowlist); false when the user has no such (undeleted) account.
   */
  async markDeleted(userId: number, id: number, now: string): Promise<boolean> {
    return this.db.transaction().execute(async (trx) => {
      const res = await trx
        .updateTable('proxy_accounts')
        .set({ deleted_at: now, status: 'disabled', updated_at: now })
        .where('id', '=', id)
        .where('user_id', '=', userId)
        .where('kind', '=', 'rotating')
        .where('deleted_at', 'is', null)
        .executeTakeFirst();
      if (res.numUpdatedRows !== 1n) return false;
      await trx.deleteFrom('allowlist_entries').where('account_id', '=', id).execute();
      return true;
    });
  }

  /** The prefixes of the user's accounts' extraction keys, by account. */
  async extractKeyPrefixes(userId: number): Promise<Map<number, string>> {
    const rows = await this.db.selectFrom('extract_keys').select(['account_id', 'prefix']).where('user_id', '=', userId).where('account_id', 'is not', null).execute();
    return new Map(rows.map((r) => [r.account_id!, r.prefix]));
  }

  private live(userId: number) {
    return this.db.selectFrom('proxy_accounts').where('user_id', '=', userId).where('kind', '=', 'rotating').where('deleted_at', 'is', null);
  }
}

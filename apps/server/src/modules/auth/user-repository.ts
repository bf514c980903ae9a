import type { Insertable, Kysely, Transaction, Updateable } from 'kysely';
import type { Database, UserTable } from '../../db/schema';
import type { UserRow } from '../../db/rows';

type Trx = Transaction<Database>;

export class UserRepository {
  constructor(private readonly db: Kysely<Database>) {}

  findById(id: number, trx?: Trx): Promise<UserRow | undefined> {
    return (trx ?? this.db).selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst();
  }

  findByEmail(email: string, trx?: Trx): Promise<UserRow | undefined> {
    return (trx ?? this.db).selectFrom('users').selectAll().where('email', '=', email.toLowerCase()).executeTakeFirst();
  }

  /** Account names are unique regardless of case, so `Alice` and `alice` cannot both exist. */
  findByAccount(account: string, trx?: Trx): Promise<UserRow | undefined> {
    return (trx ?? this.db).selectFrom('users').selectAll().where('account', '=', account.toLowerCase()).executeTakeFirst();
  }

  findByInviteCode(code: string, trx?: Trx): Promise<UserRow | undefined> {
    return (trx ?? this.db).selectFrom('users').selectAll().where('invite_code', '=', code.toUpperCase()).executeTakeFirst();
  }

  async insert(user: Insertable<UserTable>, trx?: Trx): Promise<UserRow> {
    return (trx ?? this.db).insertInto('users').values(user).returningAll().executeTakeFirstOrThrow();
  }

  async update(id: number, patch: Updateable<UserTable>, trx?: Trx): Promise<void> {
    await (trx ?? this.db).updateTable('users').set(patch).where('id', '=', id).execute();
  }

  async hasAdmin(): Promise<boolean> {
    const row = await this.db.selectFrom('users').select('id').where('role', '=', 'admin').executeTakeFirst();
    return row !== undefined;
  }
}

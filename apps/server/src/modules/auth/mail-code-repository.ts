import type { Insertable, Kysely, Transaction } from 'kysely';
import type { Database, MailCodeTable } from '../../db/schema';

type Trx = Transaction<Database>;

/** Mailed codes, kept as an HMAC (MailCodeService), and what was sent when (for the resend and hourly limits). */
export class MailCodeRepository {
  constructor(private readonly db: Kysely<Database>) {}

  /** When the newest code for this email and purpose was created, if any. */
  async lastSentAt(email: string, purpose: string, trx?: Trx): Promise<string | undefined> {
    const row = await (trx ?? this.db)
      .selectFrom('mail_codes')
      .select('created_at')
      .where('email', '=', email)
      .where('purpose', '=', purpose)
      .orderBy('created_at', 'desc')
      .executeTakeFirst();
    return row?.created_at;
  }

  /** Codes created since `since` for this email, or from this IP. */
  async countSince(column: 'email' | 'ip', value: string, since: string, trx?: Trx): Promise<number> {
    const row = await (trx ?? this.db)
      .selectFrom('mail_codes')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where(column, '=', value)
      .where('created_at', '>', since)
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  /** Retires the unconsumed codes for this email and purpose created at or before `createdBy`. */
  async retire(email: string, purpose: string, createdBy: string, now: string, trx?: Trx): Promise<void> {
    await (trx ?? this.db)
      .updateTable('mail_codes')
      .set({ consumed_at: now })
      .where('email', '=', email)
      .where('purpose', '=', purpose)
      .where('consumed_at', 'is', null)
      .where('created_at', '<=', createdBy)
      .execute();
  }

  async insert(code: Insertable<MailCodeTable>, trx?: Trx): Promise<void> {
    await (trx ?? this.db).insertInto('mail_codes').values(code).execute();
  }

  /** The newest unconsumed, unexpired code for this email and purpose. */
  findLive(email: string, purpose: string, now: string): Promise<{ id: number; code_hash: string; tries: number } | undefined> {
    return this.db
      .selectFrom('mail_codes')
      .select(['id', 'code_hash', 'tries'])
      .where('email', '=', email)
      .where('purpose', '=', purpose)
      .where('consumed_at', 'is', null)
      .where('expires_at', '>', now)
      .orderBy('created_at', 'desc')
      .executeTakeFirst();
  }

  async addTry(id: number): Promise<void> {
    await this.db.updateTable('mail_codes').set((eb) => ({ tries: eb('tries', '+', 1) })).where('id', '=', id).execute();
  }

  /**
   * Uses the code up if it is still unconsumed with tries left: a conditional update, so of two requests
   * racing with the same code only one gets true.
   */
  async consume(id: number, now: string, maxTries: number): Promise<boolean> {
    const used = await this.db
      .updateTable('mail_codes')
      .set({ consumed_at: now })
      .where('id', '=', id)
      .where('consumed_at', 'is', null)
      .where('tries', '<', maxTries)
      .executeTakeFirst();
    return Number(used.numUpdatedRows) === 1;
  }
}

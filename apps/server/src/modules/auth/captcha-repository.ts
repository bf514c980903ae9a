import type { Insertable, Kysely } from 'kysely';
import type { CaptchaTable, Database } from '../../db/schema';

export class CaptchaRepository {
  constructor(private readonly db: Kysely<Database>) {}

  async removeExpired(now: string): Promise<void> {
    await this.db.deleteFrom('captchas').where('expires_at', '<=', now).execute();
  }

  async insert(captcha: Insertable<CaptchaTable>): Promise<void> {
    await this.db.insertInto('captchas').values(captcha).execute();
  }

  /** Deletes the captcha and answers what it held: whoever takes it first is the only one to check it. */
  take(id: string): Promise<{ answer_hash: string; expires_at: string } | undefined> {
    return this.db.deleteFrom('captchas').where('id', '=', id).returning(['answer_hash', 'expires_at']).executeTakeFirst();
  }
}

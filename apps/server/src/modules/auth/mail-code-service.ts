import type { Lang, MailPurpose } from '@resi/contract';
import type { Kysely, Transaction } from 'kysely';
import { isUniqueViolation } from '../../db/db-errors';
import type { Database } from '../../db/schema';
import { type Clock, MINUTE, addMs, iso } from '../../lib/clock';
import { digits, hmac, newToken, safeEqual } from '../../lib/secrets';
import type { Mailer } from '../../mail/mailer';
import { AppError } from '../../shared/errors';
import { translator } from '../../shared/i18n';
import { MailCodeRepository } from './mail-code-repository';

export const MAIL_CODE_RULES = {
  ttl: 10 * MINUTE,
  maxTries: 5,
  resendAfter: 60_000,
  perEmailPerHour: 5,
  perIpPerHour: 20,
} as const;

/**
 * Email codes (docs/business-rules.md#registration-and-mail-codes): 6 digits, 10 minutes, 5 tries, one live code per email and purpose.
 * Codes are kept as an HMAC (a plain hash of six digits is guessed offline in a millisecond).
 */
export class MailCodeService {
  private readonly codes: MailCodeRepository;

  constructor(
    private readonly db: Kysely<Database>,
    private readonly clock: Clock,
    private readonly secret: string,
    private readonly mailer: Mailer,
    private readonly appName: string,
  ) {
    this.codes = new MailCodeRepository(db);
  }

  /**
   * `notice`: the address may not use a code for this purpose (AuthService.sendMailCode). The request is
   * recorded and limited like any other, with a hash no 6-digit code matches, and the mail says why.
   */
  async send(email: string, purpose: MailPurpose, ip: string | null, lang: Lang, kind: 'code' | 'notice' = 'code'): Promise<{ resendAfter: number }> {
    const now = this.clock.now();
    const code = kind === 'code' ? digits(6) : newToken();
    try {
      // Checks and insert in one transaction: on SQLite that serializes racing sends; on PostgreSQL the
      // partial unique index (one unconsumed code per email and purpose) refuses the slower one.
      await this.db.transaction().execute(async (trx) => {
        await this.assertMaySend(trx, email, purpose, ip, now);
        // One live code per email and purpose: a new one retires the old. Not one younger than the resend
        // wait, though: that was committed by a send racing this one after the check above, and leaving it
        // live makes the insert below hit the unique index instead of quietly replacing it.
        await this.codes.retire(email, purpose, iso(addMs(now, -MAIL_CODE_RULES.resendAfter)), iso(now), trx);
        await this.codes.insert(
          {
            email,
            purpose,
            code_hash: this.hash(email, purpose, code),
            tries: 0,
            ip,
            created_at: iso(now),
            expires_at: iso(addMs(now, MAIL_CODE_RULES.ttl)),
            consumed_at: null,
          },
          trx,
        );
      });
    } catch (err) {
      // Another send for this email and purpose committed its code first: this one is a resend too soon.
      if (isUniqueViolation(err)) throw new AppError('MAIL_CODE_TOO_SOON', { seconds: MAIL_CODE_RULES.resendAfter / 1000 });
      throw err;
    }
    const t = translator(lang);
    const app = this.appName;
    await this.mailer.send(
      kind === 'code'
        ? { to: email, subject: t('mail.codeSubject', { app, code }), text: t('mail.codeBody', { app, code, purpose: t(`mail.purpose.${purpose}`) }) }
        : { to: email, subject: t('mail.noticeSubject', { app }), text: t(`mail.notice.${purpose}`, { app }) },
    );
    return { resendAfter: MAIL_CODE_RULES.resendAfter / 1000 };
  }

  /**
   * Checks a code and, if right, uses it up. A wrong guess costs one of the five tries and is kept even
   * though the caller's request fails; a right one is marked consumed by a conditional update, so two
   * requests racing with the same code cannot both pass.
   */
  async consume(email: string, purpose: MailPurpose, code: string): Promise<void> {
    const now = iso(this.clock.now());
    const live = await this.codes.findLive(email, purpose, now);
    if (!live || live.tries >= MAIL_CODE_RULES.maxTries) throw new AppError('MAIL_CODE_INVALID');
    if (!safeEqual(this.hash(email, purpose, code), live.code_hash)) {
      await this.codes.addTry(live.id);
      throw new AppError('MAIL_CODE_INVALID');
    }
    if (!(await this.codes.consume(live.id, now, MAIL_CODE_RULES.maxTries))) throw new AppError('MAIL_CODE_INVALID');
  }

  /** Resend after 60 s, at most 5 codes per email and 20 per IP an hour. */
  private async assertMaySend(trx: Transaction<Database>, email: string, purpose: MailPurpose, ip: string | null, now: Date): Promise<void> {
    const last = await this.codes.lastSentAt(email, purpose, trx);
    if (last) {
      const wait = Date.parse(last) + MAIL_CODE_RULES.resendAfter - now.getTime();
      if (wait > 0) throw new AppError('MAIL_CODE_TOO_SOON', { seconds: Math.ceil(wait / 1000) });
    }
    const hourAgo = iso(addMs(now, -60 * MINUTE));
    const byEmail = await this.codes.countSince('email', email, hourAgo, trx);
    const byIp = ip ? await this.codes.countSince('ip', ip, hourAgo, trx) : 0;
    if (byEmail >= MAIL_CODE_RULES.perEmailPerHour || byIp >= MAIL_CODE_RULES.perIpPerHour) throw new AppError('MAIL_CODE_TOO_MANY');
  }

  private hash(email: string, purpose: string, code: string): string {
    return hmac(this.secret, `mail:${email}:${purpose}:${code}`);
  }
}

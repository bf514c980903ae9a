import type { ChangePassBody, Lang, LoginBody, LoginResult, MailPurpose, RegisterBody, ResetPassBody } from '@resi/contract';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema';
import { AppError } from '../../shared/errors';
import type { UserRow } from '../../db/rows';
import { type Clock, DAY, MINUTE, addMs, iso } from '../../lib/clock';
import { emailIdentity } from '../../lib/email-identity';
import { KeyedLock } from '../../lib/keyed-lock';
import { DUMMY_PASSWORD_HASH, hashPassword, newInviteCode, verifyPassword } from '../../lib/secrets';
import type { CaptchaService } from './captcha-service';
import type { LoginAddressRepository } from './login-address-repository';
import type { LoginLogRepository } from './login-log-repository';
import type { MailCodeService } from './mail-code-service';
import type { SessionService } from './session-service';
import type { UserRepository } from './user-repository';

/**
 * Login lockout (docs/business-rules.md#login, docs/decisions.md#accounts): 5 failures for one account name from one IP lock that
 * pair; 20 failures from one IP, whatever the accounts, lock that IP (password spraying). Both for
 * 15 minutes counted from the oldest failure that tipped it. 10 failures of one account from any addresses
 * (guessing from many addresses) close it for 15 minutes to every address it has not proved itself from in
 * the last 90 days; the owner still signs in from those, or proves the mailbox with a password reset.
 */
export const LOCKOUT = { pairFailures: 5, ipFailures: 20, accountFailures: 10, window: 15 * MINUTE, knownAddressFor: 90 * DAY } as const;

export interface ClientMeta {
  ip: string | null;
  userAgent: string | null;
  lang: Lang;
}

export class AuthService {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly clock: Clock,
    private readonly users: UserRepository,
    private readonly sessions: SessionService,
    private readonly captchas: CaptchaService,
    private readonly mailCodes: MailCodeService,
    private readonly loginLogs: LoginLogRepository,
    private readonly loginAddresses: LoginAddressRepository,
  ) {}

  /** One account's attempts are checked one at a time, so parallel guesses all see the failures before them. */
  private readonly attempts = new KeyedLock();

  async register(body: RegisterBody, meta: ClientMeta): Promise<{ user: UserRow; token: string }> {
    // Every check that can refuse comes before the code is used up, so a bad request changes nothing.
    if (body.account && (await this.users.findByAccount(body.account))) throw new AppError('ACCOUNT_TAKEN');
    const referrer = body.inviteCode ? await this.users.findByInviteCode(body.inviteCode) : null;
    if (body.inviteCode && !referrer) throw new AppError('INVITE_CODE_UNKNOWN');
    // A registered address answers exactly as a wrong code (no code was ever mailed for it), so the
    // form does not tell who has an account. Last before the code, like the code check it imitates.
    if (await this.users.findByEmail(body.email)) throw new AppError('MAIL_CODE_INVALID');
    await this.mailCodes.consume(body.email, 'register', body.code);
    // Self-referral (docs/business-rules.md#self-referral): the code's owner reads mail at this very
    // mailbox. Checked after the code, so only the mailbox's holder learns whose code it is.
    if (referrer && emailIdentity(referrer.email) === emailIdentity(body.email)) throw new AppError('SELF_REFERRAL');
    const passwordHash = await hashPassword(body.password);
    // Outside the transaction: SQLite has one connection, and a query beside an open transaction would wait on it.
    const inviteCode = await this.freeInviteCode();
    const now = iso(this.clock.now());
    try {
      return await this.db.transaction().execute(async (trx) => {
        const user = await this.users.insert(
          {
            email: body.email,
            account: body.account?.toLowerCase() ?? null,
            password_hash: passwordHash,
            role: 'customer',
            is_distributor: 0,
            status: 'active',
            invite_code: inviteCode,
            referrer_id: referrer?.id ?? null,
            channel_key: body.channelKey || null,
            channel_value: body.channelValue || null,
            lang: meta.lang,
            created_at: now,
            last_login_at: now,
          },
          trx,
        );
        if (meta.ip) await this.loginAddresses.remember(user.id, meta.ip, now, trx);
        const token = await this.sessions.create(user.id, meta, trx);
        return { user, token };
      });
    } catch (err) {
      // Two registrations of one email racing past the check above, both with the mailed code: the unique
      // index decides, and the loser holds a code of that mailbox, so saying why tells nobody anything new.
      if (await this.users.findByEmail(body.email)) throw new AppError('EMAIL_TAKEN');
      throw err;
    }
  }

  async login(body: LoginBody, meta: ClientMeta): Promise<{ user: UserRow; token: string }> {
    const account = body.account.trim().toLowerCase();
    const now = this.clock.now();
    const user = await this.findLogin(account);
    // Every attempt names its user when the account is one (docs/business-rules.md#login), whatever stopped it.
    const log = (result: LoginResult) => this.loginLogs.add({ userId: user?.id ?? null, account, ip: meta.ip, userAgent: meta.userAgent, result, at: iso(now) });

    try {
      await this.captchas.consume(body.captchaId, body.captcha);
    } catch (err) {
      await log('bad-captcha');
      throw err;
    }
    // Keyed by the user, not the name typed: guesses by email and by account name count together.
    return this.attempts.run(user ? `user:${user.id}` : `name:${account}`, async () => {
      const lockedFor = await this.lockedMinutes(account, meta.ip, now);
      if (lockedFor > 0) {
        await log('locked');
        throw new AppError('LOGIN_LOCKED', { minutes: lockedFor });
      }
      const closedFor = await this.closedToAddressMs(user, account, meta.ip, now);
      if (closedFor > 0) {
        await log('locked');
        throw new AppError('LOGIN_GUARDED', { minutes: Math.ceil(closedFor / MINUTE), seconds: Math.ceil(closedFor / 1000) });
      }
      const ok = await verifyPassword(body.password, user?.password_hash ?? DUMMY_PASSWORD_HASH);
      if (!user || !ok) {
        await log(user ? 'bad-password' : 'unknown-account');
        throw new AppError('LOGIN_FAILED');
      }
      if (user.status !== 'active') {
        await log('disabled');
        throw new AppError('ACCOUNT_DISABLED');
      }
      await this.users.update(user.id, { last_login_at: iso(now) });
      await log('success');
      if (meta.ip) await this.loginAddresses.remember(user.id, meta.ip, iso(now));
      const token = await this.sessions.create(user.id, meta);
      return { user: { ...user, last_login_at: iso(now) }, token };
    });
  }

  /**
   * A login body that failed its schema is still an attempt (docs/business-rules.md#login: every attempt is a row) when it
   * names an account; without one there is nothing to tie the row to. It does not count towards lockout.
   */
  async logInvalidLogin(body: unknown, meta: ClientMeta): Promise<void> {
    const named = (body as { account?: unknown } | null)?.account;
    const account = typeof named === 'string' ? named.trim().toLowerCase() : '';
    if (account === '') return;
    const user = await this.findLogin(account.slice(0, 254));
    await this.loginLogs.add({ userId: user?.id ?? null, account, ip: meta.ip, userAgent: meta.userAgent, result: 'invalid', at: iso(this.clock.now()) });
  }

  /** The user a login names: by email when it has an @, else by account name. */
  private findLogin(account: string): Promise<UserRow | undefined> {
    return account.includes('@') ? this.users.findByEmail(account) : this.users.findByAccount(account);
  }

  /** Minutes until this account name may be tried from this IP again; 0 when it may now. */
  private async lockedMinutes(account: string, ip: string | null, now: Date): Promise<number> {
    const since = iso(addMs(now, -LOCKOUT.window));
    const checks: Array<[string[], number]> = [
      [await this.loginLogs.failuresSince({ account, ip }, since, LOCKOUT.pairFailures), LOCKOUT.pairFailures],
    ];
    if (ip) checks.push([await this.loginLogs.failuresSince({ ip }, since, LOCKOUT.ipFailures), LOCKOUT.ipFailures]);
    let until = 0;
    for (const [times, limit] of checks) {
      const oldest = times[limit - 1];
      if (oldest) until = Math.max(until, Date.parse(oldest) + LOCKOUT.window);
    }
    return until > now.getTime() ? Math.ceil((until - now.getTime()) / MINUTE) : 0;
  }

  /**
   * Milliseconds until this account may be tried from this address again after failing from many addresses;
   * 0 when it may now. An address the account proved itself from is never closed. An unknown name counts its
   * failures by the name and is closed alike, so the answer does not tell whether the account exists.
   */
  private async closedToAddressMs(user: UserRow | undefined, account: string, ip: string | null, now: Date): Promise<number> {
    if (user && ip && (await this.loginAddresses.knows(user.id, ip, iso(addMs(now, -LOCKOUT.knownAddressFor))))) return 0;
    const since = iso(addMs(now, -LOCKOUT.window));
    const times = await this.loginLogs.failuresSince(user ? { userId: user.id } : { account }, since, LOCKOUT.accountFailures);
    const oldest = times[LOCKOUT.accountFailures - 1];
    return oldest ? Math.max(0, Date.parse(oldest) + LOCKOUT.window - now.getTime()) : 0;
  }

  async changePassword(auth: { user: UserRow; sessionId: number }, body: ChangePassBody): Promise<void> {
    if (!(await verifyPassword(body.oldPassword, auth.user.password_hash))) throw new AppError('PASSWORD_WRONG');
    if (body.oldPassword === body.newPassword) throw new AppError('PASSWORD_SAME');
    await this.mailCodes.consume(auth.user.email, 'change-pass', body.code);
    const hash = await hashPassword(body.newPassword);
    await this.db.transaction().execute(async (trx) => {
      await this.users.update(auth.user.id, { password_hash: hash }, trx);
      await this.sessions.revokeAllOf(auth.user.id, auth.sessionId, trx);
    });
  }

  /** `ip`: where the mailed code was typed; the owner may sign in from there even while the account is closed to strangers. */
  async resetPassword(body: ResetPassBody, ip: string | null): Promise<void> {
    // An unknown address never got a usable code: it fails the code check like a wrong code, and the
    // answer does not tell whether the address has an account.
    await this.mailCodes.consume(body.email, 'reset', body.code);
    const user = await this.users.findByEmail(body.email);
    if (!user) throw new AppError('MAIL_CODE_INVALID');
    const hash = await hashPassword(body.newPassword);
    await this.db.transaction().execute(async (trx) => {
      await this.users.update(user.id, { password_hash: hash }, trx);
      await this.sessions.revokeAllOf(user.id, null, trx);
      if (ip) await this.loginAddresses.remember(user.id, ip, iso(this.clock.now()), trx);
    });
  }

  /**
   * Mails a code when it can be used: to a new address for register, to a known one otherwise. Any other
   * request is answered the same way, counted against the same limits, and its address gets a notice
   * instead of a code, so the form never tells whether an address has an account.
   */
  async sendMailCode(email: string, purpose: MailPurpose, ip: string | null, lang: Lang): Promise<{ resendAfter: number }> {
    const exists = (await this.users.findByEmail(email)) !== undefined;
    const usable = purpose === 'register' ? !exists : exists;
    return this.mailCodes.send(email, purpose, ip, lang, usable ? 'code' : 'notice');
  }

  private async freeInviteCode(): Promise<string> {
    for (;;) {
      const code = newInviteCode();
      if (!(await this.users.findByInviteCode(code))) return code;
    }
  }
}

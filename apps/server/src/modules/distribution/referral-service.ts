import type { Lang, SaveDistributionUserBody } from '@resi/contract';
import type { Kysely } from 'kysely';
import { isUniqueViolation } from '../../db/db-errors';
import type { UserRow } from '../../db/rows';
import type { Database } from '../../db/schema';
import { type Clock, iso } from '../../lib/clock';
import type { CutoffBus } from '../../lib/cutoff-bus';
import { emailIdentity } from '../../lib/email-identity';
import { hashPassword, newInviteCode } from '../../lib/secrets';
import { AppError } from '../../shared/errors';
import type { UserAdminRepository } from '../admin/user-admin-repository';
import type { AuditLogRepository } from '../audit/audit-log-repository';
import type { UserRepository } from '../auth/user-repository';

/**
 * `POST /distribution/saveuser` (docs/business-rules.md#referred-users): a distributor creates a customer
 * under themselves, or changes the remark or standing of one of their own referrals. Anyone else's user is
 * "not found", so ids tell a distributor nothing about other users.
 */
export class ReferralService {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly clock: Clock,
    private readonly users: UserRepository,
    private readonly userAdmin: UserAdminRepository,
    private readonly audit: AuditLogRepository,
    private readonly cutoffs?: Pick<CutoffBus, 'publish'>,
  ) {}

  async save(caller: UserRow, body: SaveDistributionUserBody, meta: { ip: string | null; lang: Lang }): Promise<number> {
    return body.id === undefined ? this.create(caller, body, meta) : this.edit(caller, body.id, body, meta.ip);
  }

  private async create(caller: UserRow, body: SaveDistributionUserBody, meta: { ip: string | null; lang: Lang }): Promise<number> {
    const email = body.email!;
    // Self-referral (docs/business-rules.md#self-referral): not even under another address of one's own mailbox.
    if (emailIdentity(email) === emailIdentity(caller.email)) throw new AppError('SELF_REFERRAL');
    if (await this.users.findByEmail(email)) throw new AppError('EMAIL_TAKEN');
    if (body.account && (await this.users.findByAccount(body.account))) throw new AppError('ACCOUNT_TAKEN');
    const passwordHash = await hashPassword(body.password!);
    const inviteCode = await this.freeInviteCode();
    const now = iso(this.clock.now());
    try {
      return await this.db.transaction().execute(async (trx) => {
        const user = await this.users.insert(
          {
            email,
            account: body.account?.toLowerCase() ?? null,
            password_hash: passwordHash,
            role: 'customer',
            is_distributor: 0,
            status: body.status ?? 'active',
            invite_code: inviteCode,
            referrer_id: caller.id,
            channel_key: null,
            channel_value: null,
            lang: meta.lang,
            created_at: now,
            last_login_at: null,
            distributor_remark: body.remark ?? null,
          },
          trx,
        );
        await this.audit.write({ actorId: caller.id, action: 'referral.create', target: `user:${user.id}`, before: null, after: { email, status: user.status }, ip: meta.ip }, trx);
        return user.id;
      });
    } catch (err) {
      // Two creations of one address racing past the checks above: the unique index decides.
      if (isUniqueViolation(err)) throw new AppError((await this.users.findByEmail(email)) ? 'EMAIL_TAKEN' : 'ACCOUNT_TAKEN');
      throw err;
    }
  }

  private async edit(caller: UserRow, id: number, body: SaveDistributionUserBody, ip: string | null): Promise<number> {
    const statusChanged = await this.db.transaction().execute(async (trx) => {
      const user = await this.users.findById(id, trx);
      // Only one's own referrals; an admin manages every referred user. Never oneself or an admin.
      const mine = user && user.referrer_id !== null && (user.referrer_id === caller.id || caller.role === 'admin');
      if (!user || !mine || user.id === caller.id || user.role === 'admin') throw new AppError('NOT_FOUND');
      const patch: { distributor_remark?: string | null; status?: 'active' | 'disabled' } = {};
      if (body.remark !== undefined && body.remark !== user.distributor_remark) patch.distributor_remark = body.remark;
      if (body.status !== undefined && body.status !== user.status) patch.status = body.status;
      if (Object.keys(patch).length === 0) return false;
      await this.userAdmin.update(id, patch, trx);
      // A disabled user is signed out at once, as when an admin disables them (docs/business-rules.md#user-administration).
      if (patch.status === 'disabled') await this.userAdmin.revokeSessions([id], trx);
      const before = Object.fromEntries(Object.keys(patch).map((k) => [k, user[k as keyof typeof patch]]));
      await this.audit.write({ actorId: caller.id, action: 'referral.update', target: `user:${id}`, before, after: patch, ip }, trx);
      return patch.status !== undefined;
    });
    // Every gateway re-reads the user now, so a disabled referral's lines stop (and an enabled one's work) at once.
    if (statusChanged) await this.cutoffs?.publish({ userId: id });
    return id;
  }

  private async freeInviteCode(): Promise<string> {
    for (;;) {
      const code = newInviteCode();
      if (!(await this.users.findByInviteCode(code))) return code;
    }
  }
}

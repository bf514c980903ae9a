import type { Lang, SaveDistributionUserBody } from '@resi/contract';
import type { Kysely } from 'kysely';
import { isUniqueViolation } from '../../db/db-errors';
import type { UserRow } from '../../db/rows';
import type { Database, DisabledBy } from '../../db/schema';
import { type Clock, iso } from '../../lib/clock';
import type { CutoffBus } from '../../lib/cutoff-bus';
import { emailIdentity } from '../../lib/email-identity';
import { hashPassword, newInviteCode } from '../../lib/secrets';
import { AppError } from '../../shared/errors';
import type { UserAdminRepository } from '../admin/user-admin-repository';
import type { AuditLogRepository } from '../audit/audit-log-repository';
import type { UserRepository } from '../auth/user-repository';

/** An admin acting on a referral disables as the operator; a distributor only suspends their own customer. */
const standingOf = (caller: UserRow): DisabledBy => (caller.role === 'admin' ? 'admin' : 'distributor');

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
            disabled_by: body.status === 'disabled' ? standingOf(caller) : null,
            invite_code: inviteCode,
            referrer_id: caller.id,
            channel_key: null,
            channel_value: null,
            lang: meta.lang,
            created_at: now,
            last_login_at: null,
            distributor_remark: body.remark ?? null,
            // Made without a mail code, so the distributor may well sign in as it (docs/business-rules.md#commission).
            created_by: caller.id,
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
    const by = standingOf(caller);
    const statusChanged = await this.db.transaction().execute(async (trx) => {
      const user = await this.users.findById(id, trx);
      // Only one's own referrals; an admin manages every referred user. Never oneself or an admin.
      const mine = user && user.referrer_id !== null && (user.referrer_id === caller.id || caller.role === 'admin');
      if (!user || !mine || user.id === caller.id || user.role === 'admin') throw new AppError('NOT_FOUND');
      // Rows disabled before `disabled_by` was kept count as the admin's (docs/business-rules.md#referred-users).
      const standing = { status: user.status, disabled_by: user.status === 'disabled' ? (user.disabled_by ?? 'admin') : null };
      const remark = body.remark !== undefined && body.remark !== user.distributor_remark ? body.remark : undefined;
      // An admin's disable of a suspended customer makes the suspension the admin's.
      const standingChanges = body.status !== undefined && (body.status !== standing.status || (body.status === 'disabled' && by === 'admin' && standing.disabled_by !== 'admin'));
      // Checked before anything is written, so a refused request changes nothing.
      if (standingChanges && body.status === 'active' && by === 'distributor' && standing.disabled_by !== 'distributor') throw new AppError('REFERRAL_DISABLED_BY_ADMIN');
      if (remark !== undefined) await this.userAdmin.update(id, { distributor_remark: remark }, trx);
      let standingSet = false;
      if (standingChanges) {
        // Conditional updates: an admin's disable committed meanwhile is neither overwritten nor lifted by a distributor.
        const done = body.status === 'disabled' ? await this.userAdmin.disable([id], by, trx) : await this.userAdmin.enable([id], by, trx);
        if (done.length === 0 && body.status === 'active') throw new AppError('REFERRAL_DISABLED_BY_ADMIN');
        standingSet = done.length > 0;
      }
      const after = {
        ...(remark !== undefined ? { distributor_remark: remark } : {}),
        ...(standingSet ? { status: body.status, disabled_by: body.status === 'disabled' ? by : null } : {}),
      };
      if (Object.keys(after).length === 0) return false;
      const before = {
        ...(remark !== undefined ? { distributor_remark: user.distributor_remark } : {}),
        ...(standingSet ? standing : {}),
      };
      // A disabled user is signed out at once, as when an admin disables them (docs/business-rules.md#user-administration).
      if (standingSet && body.status === 'disabled') await this.userAdmin.revokeSessions([id], trx);
      await this.audit.write({ actorId: caller.id, action: 'referral.update', target: `user:${id}`, before, after, ip }, trx);
      return standingSet && body.status !== standing.status;
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

import { type UpdateUserBody, type UserBulkBody, normalizeLang } from '@resi/contract';
import { type Kysely, type Transaction, type Updateable } from 'kysely';
import { randomInt } from 'node:crypto';
import type { Database, UserTable } from '../../db/schema';
import type { CutoffBus } from '../../lib/cutoff-bus';
import { hashPassword } from '../../lib/secrets';
import type { Mailer } from '../../mail/mailer';
import { AppError } from '../../shared/errors';
import { translator } from '../../shared/i18n';
import type { AuditLogRepository } from '../audit/audit-log-repository';
import type { UserAdminRepository } from './user-admin-repository';
import type { UserListRepository } from './user-list-repository';

type Actor = { id: number; ip: string | null };
type Trx = Transaction<Database>;

/** Users changed per statement in a bulk action: well under both stores' limits on bound values. */
const SLICE = 500;
const PASSWORD_ALPHABET = 'abcdefghjkmnpqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ23456789';

/** A password that meets the registration rules (a letter and a digit), without look-alike characters. */
export function generatePassword(): string {
  const pick = (from: string) => from[randomInt(from.length)]!;
  const chars = Array.from({ length: 14 }, () => pick(PASSWORD_ALPHABET));
  chars.push(pick('abcdefghjkmnpqrstuvwxyz'), pick('23456789'));
  // Shuffled so the guaranteed letter and digit are not always last.
  for (let i = chars.length - 1; i > 0; i -= 1) {
    const j = randomInt(i + 1);
    [chars[i], chars[j]] = [chars[j]!, chars[i]!];
  }
  return chars.join('');
}

/**
 * The admin's changes to users (docs/business-rules.md#user-administration). Every change is audited in
 * its own transaction; disabling signs the user out everywhere and tells the gateways to cut their lines
 * at once. Guard rails: nobody disables or demotes themselves, and the last active admin stays one.
 */
export class UserAdminService {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly users: UserAdminRepository,
    private readonly list: UserListRepository,
    private readonly audit: AuditLogRepository,
    private readonly mailer: Mailer,
    private readonly appName: string,
    private readonly cutoffs?: CutoffBus,
  ) {}

  async update(id: number, body: UpdateUserBody, actor: Actor): Promise<void> {
    const statusChanged = await this.db.transaction().execute(async (trx) => {
      const admins = await this.users.lockActiveAdmins(trx);
      const user = await this.users.findById(id, trx);
      if (!user) throw new AppError('USER_UNKNOWN');
      const losesAdmin = user.role === 'admin' && user.status === 'active' && (body.status === 'disabled' || body.role === 'customer');
      if (losesAdmin && id === actor.id) throw new AppError('ADMIN_SELF');
      if (losesAdmin && admins.filter((a) => a !== id).length === 0) throw new AppError('ADMIN_LAST');

      const patch: Updateable<UserTable> = {};
      // An admin's disable is the operator's (docs/business-rules.md#referred-users): it also takes over a
      // distributor's suspension of the user, and only an admin lifts it. Enabling lifts either.
      if (body.status === 'disabled' && (user.status !== 'disabled' || user.disabled_by !== 'admin')) Object.assign(patch, { status: 'disabled', disabled_by: 'admin' });
      if (body.status === 'active' && user.status !== 'active') Object.assign(patch, { status: 'active', disabled_by: null });
      if (body.role !== undefined && body.role !== user.role) patch.role = body.role;
      if (body.isDistributor !== undefined && (body.isDistributor ? 1 : 0) !== user.is_distributor) patch.is_distributor = body.isDistributor ? 1 : 0;
      if (body.commissionRate !== undefined && body.commissionRate !== user.commission_rate) patch.commission_rate = body.commissionRate;
      const remark = body.remark === '' ? null : body.remark;
      if (remark !== undefined && remark !== user.remark) patch.remark = remark;
      if (Object.keys(patch).length === 0) return false;

      await this.users.update(id, patch, trx);
      if (patch.status === 'disabled') await this.users.revokeSessions([id], trx);
      const before = Object.fromEntries(Object.keys(patch).map((k) => [k, user[k as keyof typeof patch]]));
      await this.audit.write({ actorId: actor.id, action: 'user.update', target: `user:${id}`, before: camel(before), after: camel(patch), ip: actor.ip }, trx);
      return patch.status !== undefined && patch.status !== user.status;
    });
    if (statusChanged) await this.cutoffs?.publish({ userId: id });
  }

  /** Disables or enables the matching users; answers how many changed and how many the guard rails kept. */
  async bulk(body: UserBulkBody, actor: Actor): Promise<{ affected: number; skipped: number }> {
    const status = body.action === 'disable' ? 'disabled' : 'active';
    const result = await this.db.transaction().execute(async (trx) => {
      const admins = new Set(await this.users.lockActiveAdmins(trx));
      const targets = await this.list.matching(body.ids ? { ids: body.ids } : body.filter!, trx);
      let skipped = 0;
      const ids: number[] = [];
      for (const u of targets) {
        // A distributor's suspension is not yet the admin's disable: a bulk disable takes it over too.
        if (u.status === status && (status === 'active' || u.disabled_by === 'admin')) continue;
        if (status === 'disabled' && u.id === actor.id) {
          skipped += 1;
          continue;
        }
        if (status === 'disabled' && admins.has(u.id)) {
          // Keep one: the admin running the action is active, so another admin can go unless none is left.
          if (admins.size <= 1) {
            skipped += 1;
            continue;
          }
          admins.delete(u.id);
        }
        ids.push(u.id);
      }
      const changed = await this.setStatus(ids, status, trx);
      if (changed.length > 0) {
        await this.audit.write({ actorId: actor.id, action: `user.bulk-${body.action}`, target: 'users', after: { ids: changed, filter: body.filter ?? null }, ip: actor.ip }, trx);
        const was = new Map(targets.map((u) => [u.id, u]));
        for (const id of changed) {
          const before = { status: was.get(id)?.status, disabledBy: was.get(id)?.disabled_by ?? null };
          const after = { status, disabledBy: status === 'disabled' ? 'admin' : null };
          await this.audit.write({ actorId: actor.id, action: 'user.update', target: `user:${id}`, before, after, ip: actor.ip }, trx);
        }
      }
      return { changed, skipped };
    });
    for (const userId of result.changed) await this.cutoffs?.publish({ userId });
    return { affected: result.changed.length, skipped: result.skipped };
  }

  /**
   * Sets the password given, or one made up here and answered once; signs the user out everywhere and
   * mails them that support reset it. Answers the made-up password, and the mail still to be sent.
   */
  async resetPassword(userId: number, given: string | undefined, actor: Actor): Promise<{ password?: string; mail: () => Promise<void> }> {
    const password = given ?? generatePassword();
    const hash = await hashPassword(password);
    const user = await this.db.transaction().execute(async (trx) => {
      const row = await this.users.findById(userId, trx);
      if (!row) throw new AppError('USER_UNKNOWN');
      await this.users.update(userId, { password_hash: hash }, trx);
      await this.users.revokeSessions([userId], trx);
      await this.audit.write({ actorId: actor.id, action: 'user.reset-pass', target: `user:${userId}`, after: { generated: given === undefined }, ip: actor.ip }, trx);
      return row;
    });
    const t = translator(normalizeLang(user.lang));
    const app = this.appName;
    const mail = () => this.mailer.send({ to: user.email, subject: t('mail.adminResetSubject', { app }), text: t('mail.adminResetBody', { app }) });
    return { password: given === undefined ? password : undefined, mail };
  }

  private async setStatus(ids: number[], status: 'active' | 'disabled', trx: Trx): Promise<number[]> {
    const changed: number[] = [];
    for (let i = 0; i < ids.length; i += SLICE) {
      const slice = ids.slice(i, i + SLICE);
      changed.push(...(await (status === 'disabled' ? this.users.disable(slice, 'admin', trx) : this.users.enable(slice, 'admin', trx))));
      if (status === 'disabled') await this.users.revokeSessions(slice, trx);
    }
    return changed;
  }
}

/** Audit rows name fields and values as the API does (`isDistributor: true`), not as the store does (`is_distributor: 1`). */
function camel(o: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(o).map(([k, v]) => [k.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase()), k === 'is_distributor' ? v === 1 : v]));
}

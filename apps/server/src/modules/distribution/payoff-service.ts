import type { PayoffBody, PayoffDto, PayoffStatus, PayoffStatusBody } from '@resi/contract';
import type { Kysely } from 'kysely';
import { isUniqueViolation } from '../../db/db-errors';
import type { Database } from '../../db/schema';
import { type Clock, iso } from '../../lib/clock';
import { isTronAddress } from '../../payments/usdt-trc20';
import { AppError } from '../../shared/errors';
import type { AuditLogRepository } from '../audit/audit-log-repository';
import type { CommissionService } from './commission-service';
import type { DistributionRepository } from './distribution-repository';
import type { PayoffRepository, PayoffRow } from './payoff-repository';

/** Which states each decision may leave (docs/business-rules.md#payoffs). */
const FROM: Record<PayoffStatusBody['status'], PayoffStatus[]> = {
  approved: ['pending'],
  paid: ['approved'],
  rejected: ['pending', 'approved'],
};

/** Minor units as people read them in any language: `USD 12.34`. */
export function formatMinor(amount: number, currency: string): string {
  const f = new Intl.NumberFormat('en', { style: 'currency', currency, currencyDisplay: 'code' });
  const digits = f.resolvedOptions().maximumFractionDigits ?? 2;
  return f.format(amount / 10 ** digits).replace(/\u00a0/g, ' ');
}

export function toPayoffDto(r: PayoffRow): PayoffDto {
  return {
    id: r.id,
    distributorId: r.distributor_id,
    distributorEmail: r.distributor_email,
    amount: Number(r.amount),
    currency: r.currency,
    method: r.method as PayoffDto['method'],
    account: r.account,
    status: r.status,
    note: r.note,
    txRef: r.tx_ref,
    decidedBy: r.decided_by,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
    approvedAt: r.approved_at,
    paidAt: r.paid_at,
    rejectedAt: r.rejected_at,
    earned: Number(r.earned ?? 0),
    earnedFromCreatedAccounts: Number(r.earned_from_created ?? 0),
  };
}

/**
 * Payoffs: a request holds its amount out of `available` in one transaction; admins move it on by
 * conditional updates, so of two admins deciding at once one wins and the other is told its state.
 */
export class PayoffService {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly clock: Clock,
    private readonly payoffs: PayoffRepository,
    private readonly commission: CommissionService,
    private readonly distribution: DistributionRepository,
    private readonly audit: AuditLogRepository,
    private readonly currency: string,
  ) {}

  async request(distributorId: number, body: PayoffBody): Promise<PayoffDto> {
    const settings = await this.distribution.settings();
    if (!settings.payoutMethods.includes(body.method)) throw new AppError('PAYOFF_METHOD_UNAVAILABLE');
    // The checksum catches a mistyped address, which would send the money nowhere.
    if (body.method === 'usdt-trc20' && !isTronAddress(body.account)) throw new AppError('PAYOFF_ACCOUNT_INVALID');
    if (body.amount < settings.minPayout) throw new AppError('PAYOFF_BELOW_MINIMUM', { minimum: formatMinor(settings.minPayout, this.currency) });
    let id: number;
    try {
      id = await this.db.transaction().execute(async (trx) => {
        await this.payoffs.lockDistributor(distributorId, trx);
        if (await this.payoffs.hasOpen(distributorId, trx)) throw new AppError('PAYOFF_OPEN');
        const now = this.clock.now();
        const { available } = await this.commission.balances(distributorId, this.currency, now, trx);
        if (body.amount > available) throw new AppError('PAYOFF_ABOVE_AVAILABLE', { available: formatMinor(available, this.currency) });
        const at = iso(now);
        return this.payoffs.insert(
          {
            distributor_id: distributorId,
            amount: body.amount,
            currency: this.currency,
            method: body.method,
            account: body.account,
            status: 'pending',
            note: null,
            tx_ref: null,
            decided_by: null,
            created_at: at,
            updated_at: at,
            approved_at: null,
            paid_at: null,
            rejected_at: null,
          },
          trx,
        );
      });
    } catch (err) {
      // Another request of this distributor committed first: the index on open requests refused this one.
      if (isUniqueViolation(err)) throw new AppError('PAYOFF_OPEN');
      throw err;
    }
    return toPayoffDto((await this.payoffs.find(id))!);
  }

  async decide(body: PayoffStatusBody, actor: { id: number; ip: string | null }): Promise<PayoffDto> {
    const row = await this.db.transaction().execute(async (trx) => {
      const before = await this.payoffs.find(body.id, trx);
      if (!before) throw new AppError('NOT_FOUND');
      const at = iso(this.clock.now());
      const changed = await this.payoffs.transition(body.id, FROM[body.status], body.status, { at, by: actor.id, note: body.note, txRef: body.txRef }, trx);
      if (!changed) {
        // Another admin may have moved it while this one waited: report the state it is in now.
        const now = (await this.payoffs.find(body.id, trx)) ?? before;
        throw new AppError('PAYOFF_STATE', { status: now.status });
      }
      const after = (await this.payoffs.find(body.id, trx))!;
      await this.audit.write(
        {
          actorId: actor.id,
          action: `payoff.${body.status}`,
          target: `payoff:${body.id}`,
          before: { status: before.status },
          after: { status: after.status, amount: Number(after.amount), note: after.note, txRef: after.tx_ref },
          ip: actor.ip,
        },
        trx,
      );
      return after;
    });
    return toPayoffDto(row);
  }
}

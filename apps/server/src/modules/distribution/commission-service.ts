import type { RefundTakeBackDto } from '@resi/contract';
import type { Transaction } from 'kysely';
import type { OrderRow, UserRow } from '../../db/rows';
import type { Database } from '../../db/schema';
import { DAY, addMs, iso } from '../../lib/clock';
import type { UserRepository } from '../auth/user-repository';
import type { CommissionRepository, CommissionRow, LedgerSums } from './commission-repository';
import type { DistributionRepository } from './distribution-repository';

type Trx = Transaction<Database>;
type RefundCommission = Pick<Partial<RefundTakeBackDto>, 'commission'>;

/** What a distributor's balance is made of (docs/business-rules.md#commission). */
export interface Balances {
  pending: number;
  available: number;
  owed: number;
  held: number;
  paid: number;
}

/**
 * `matured − held − paid` is what may still be asked for; below zero it is owed, which the next
 * commission to mature settles before anything becomes available again.
 */
export function balancesOf(s: LedgerSums): Balances {
  const net = s.matured - s.held - s.paid;
  return { pending: s.pending, available: Math.max(0, net), owed: Math.max(0, -net), held: s.held, paid: s.paid };
}

/** floor(amount × rate / 100) in integers: the rate is kept to hundredths of a percent, so no float rounding decides a cent. */
export function commissionOf(amount: number, ratePercent: number): number {
  const basisPoints = Math.round(ratePercent * 100);
  return Math.floor((amount * basisPoints) / 10_000);
}

/**
 * The commission ledger's writers, called from the orders module inside its transactions: the earning
 * when an order becomes paid, its reversal when it is refunded. Whoever pays or refunds, it happens once:
 * the order's own conditional update lets one caller through, and the ledger's unique order × kind
 * refuses a second row anyway.
 */
export class CommissionService {
  constructor(
    private readonly users: UserRepository,
    private readonly ledger: CommissionRepository,
    private readonly distribution: DistributionRepository,
    /** This is the demo (config.ts `isDemo`): only there does the sandbox's pretend money earn commission. */
    private readonly demo: boolean,
  ) {}

  /** The rate a distributor earns: their own, or the shop's default. */
  rateOf(distributor: Pick<UserRow, 'commission_rate'>, defaultRate: number): number {
    return distributor.commission_rate ?? defaultRate;
  }

  /**
   * In the paying transaction: one earning for the buyer's distributor, when there is one and it comes to
   * more than 0. Nothing for an order paid with the sandbox outside the demo (no money came in), nor for a
   * customer the distributor created themselves unless the operator allows it (docs/business-rules.md#commission).
   */
  async onPaid(trx: Trx, order: OrderRow, now: Date): Promise<void> {
    if (Number(order.amount) <= 0) return;
    if (order.pay_method === 'sandbox' && !this.demo) return;
    const buyer = await this.users.findById(order.user_id, trx);
    if (!buyer?.referrer_id) return;
    const distributor = await this.users.findById(buyer.referrer_id, trx);
    if (!distributor || distributor.is_distributor !== 1 || distributor.id === buyer.id) return;
    const settings = await this.distribution.settings(trx);
    if (buyer.created_by === distributor.id && !settings.commissionOnCreatedAccounts) return;
    const rate = this.rateOf(distributor, settings.defaultRate);
    const amount = commissionOf(Number(order.amount), rate);
    if (amount <= 0) return;
    const paidAt = order.paid_at ? new Date(order.paid_at) : now;
    await this.ledger.addEarning(
      {
        distributor_id: distributor.id,
        order_id: order.id,
        buyer_id: buyer.id,
        amount,
        currency: order.currency,
        rate,
        available_at: iso(addMs(paidAt, settings.holdDays * DAY)),
        created_at: iso(now),
      },
      trx,
    );
  }

  /** What a refund of the order would do to its commission now (the refund dialog names it). */
  async previewRefund(order: OrderRow, now: Date): Promise<RefundCommission> {
    const earning = await this.ledger.earningOf(order.id);
    if (!earning || earning.voided_at !== null) return {};
    return this.refundPart(earning, earning.available_at > iso(now) ? 'void' : 'reversal');
  }

  /** In the refund's transaction: a pending earning is voided; one that had left its hold gets a negative row. */
  async onRefund(trx: Trx, order: OrderRow, now: Date): Promise<RefundCommission> {
    const earning = await this.ledger.earningOf(order.id, trx);
    if (!earning || earning.voided_at !== null) return {};
    const at = iso(now);
    if (await this.ledger.voidIfPending(earning.id, at, trx)) return this.refundPart(earning, 'void', trx);
    await this.ledger.addReversal(earning, at, trx);
    return this.refundPart(earning, 'reversal', trx);
  }

  private async refundPart(earning: CommissionRow, effect: 'void' | 'reversal', trx?: Trx): Promise<RefundCommission> {
    const distributor = await this.users.findById(earning.distributor_id, trx);
    return { commission: { distributorEmail: distributor?.email ?? '', amount: Number(earning.amount), currency: earning.currency, effect } };
  }

  async balances(distributorId: number, currency: string, now: Date, trx?: Trx): Promise<Balances> {
    return balancesOf(await this.ledger.sums(distributorId, currency, iso(now), trx));
  }
}

import type { RefundTakeBackDto } from '@resi/contract';
import type { Transaction } from 'kysely';
import { type OrderRow, orderItems } from '../../db/rows';
import type { Database } from '../../db/schema';
import { DAY, addMs, iso } from '../../lib/clock';
import type { CutoffEvent } from '../../lib/cutoff-bus';
import type { RefundService } from '../orders/refund-service';
import type { AllocationView, StaticAllocationRepository } from './allocation-repository';
import type { StaticInventoryRepository } from './inventory-repository';

type Trx = Transaction<Database>;
type Renewal = RefundTakeBackDto['renewals'][number];

/**
 * What a refund takes back of static IPs (docs/business-rules.md#refunds): a purchase's IPs are released
 * at once, their rows resting in cooldown as after expiry; a renewal's days come off each IP's expiry.
 */
export class StaticRefunds {
  constructor(
    private readonly inventory: StaticInventoryRepository,
    private readonly allocations: StaticAllocationRepository,
    private readonly cooldownDays: number,
  ) {}

  /** Registers with the orders module's refunds for the item types this module fulfils. */
  register(refunds: RefundService): void {
    refunds.takeBack('static', {
      preview: async (order) => ({ staticIps: (await this.allocations.heldByOrder(order.id)).map(ipOf) }),
      apply: (trx, order, now) => this.releasePurchase(trx, order, now),
    });
    refunds.takeBack('static-renew', {
      preview: async (order) => ({ renewals: this.renewals(order, await this.renewed(order)) }),
      apply: (trx, order, now) => this.takeBackRenewal(trx, order, now),
    });
  }

  private async releasePurchase(trx: Trx, order: OrderRow, now: Date): Promise<{ taken: Partial<RefundTakeBackDto>; cutoffs: CutoffEvent[] }> {
    const at = iso(now);
    const held = await this.allocations.heldByOrder(order.id, trx);
    const released = await this.allocations.release(
      held.map((a) => a.id),
      at,
      trx,
    );
    await this.inventory.setStatus(
      released.map((a) => a.inventory_id),
      ['allocated', 'grace'],
      'cooldown',
      { cooldown_until: iso(addMs(now, this.cooldownDays * DAY)), now: at },
      trx,
    );
    for (const a of released) await this.inventory.addEvent(a.inventory_id, { event: 'released', user_id: a.user_id, allocation_id: a.id, order_id: order.id, reason: 'refunded' }, trx);
    const ids = new Set(released.map((a) => a.id));
    return {
      taken: { staticIps: held.filter((a) => ids.has(a.id)).map(ipOf) },
      // The login now answers STATIC_RELEASED; its live tunnels are cut when each gateway re-reads it.
      cutoffs: released.map((a) => ({ userId: a.user_id, accountId: a.account_id })),
    };
  }

  private async takeBackRenewal(trx: Trx, order: OrderRow, now: Date): Promise<{ taken: Partial<RefundTakeBackDto>; cutoffs: CutoffEvent[] }> {
    const at = iso(now);
    const current = await this.renewed(order, trx);
    const renewals: Renewal[] = [];
    const cutoffs: CutoffEvent[] = [];
    for (const r of this.renewals(order, current)) {
      const a = current.get(r.id)!;
      if (!(await this.allocations.moveExpiry(a.id, r.expiresAt, at, trx))) continue;
      renewals.push(r);
      cutoffs.push({ userId: a.user_id, accountId: a.account_id });
    }
    return { taken: { renewals }, cutoffs };
  }

  /** The order's renewed IPs that are still the buyer's and not released: a released one has nothing left to take. */
  private async renewed(order: OrderRow, trx?: Trx): Promise<Map<number, AllocationView>> {
    const ids = orderItems(order).flatMap((i) => (i.type === 'static-renew' ? [i.staticProxyId] : []));
    if (ids.length === 0) return new Map();
    const rows = await this.allocations.byIds(ids, trx);
    return new Map(rows.filter((a) => a.user_id === order.user_id && a.status !== 'released').map((a) => [a.id, a]));
  }

  /** Each renewal's days off the expiry, never before the IP's start. */
  private renewals(order: OrderRow, current: Map<number, AllocationView>): Renewal[] {
    const out: Renewal[] = [];
    for (const item of orderItems(order)) {
      if (item.type !== 'static-renew') continue;
      const a = current.get(item.staticProxyId);
      if (!a) continue;
      const moved = addMs(new Date(a.expires_at), -item.days * DAY);
      const expiresAt = iso(moved.getTime() < new Date(a.starts_at).getTime() ? new Date(a.starts_at) : moved);
      out.push({ id: a.id, ip: a.exit_ip, days: item.days, expiresAt });
    }
    return out;
  }
}

const ipOf = (a: AllocationView) => ({ id: a.id, ip: a.exit_ip });

import type { ApiKeyAuth } from '../api-keys/api-key-service';
import { randomInt } from 'node:crypto';
import {
  type BuyStaticBody,
  type BuyStaticRenewBody,
  type Lang,
  STATIC_ORDER_TTL_MINUTES,
  type StaticItem,
  type StaticRechargeBody,
  type StaticRenewItem,
  type StaticRenewRechargeBody,
} from '@resi/contract';
import type { Transaction } from 'kysely';
import { type OrderRow, orderItems } from '../../db/rows';
import type { Database } from '../../db/schema';
import { type Clock, DAY, addMs, iso } from '../../lib/clock';
import type { SealedBox } from '../../lib/sealed-box';
import { AppError } from '../../shared/errors';
import type { AuditLogRepository } from '../audit/audit-log-repository';
import type { UserRepository } from '../auth/user-repository';
import type { CatalogueRepository } from '../catalogue/catalogue-repository';
import { toLocalized } from '../catalogue/catalogue-dto';
import type { Fulfilment } from '../orders/fulfilment';
import type { OrderService } from '../orders/order-service';
import type { AllocationView, StaticAllocationRepository } from './allocation-repository';
import type { StaticInventoryRepository } from './inventory-repository';
import { type UnpaidStaticLimits, assertMayHoldUnpaid } from './unpaid-static-cap';

type Trx = Transaction<Database>;
type Actor = { id: number; ip: string | null };

const ALPHANUM = 'abcdefghijklmnopqrstuvwxyz0123456789';
const PASSWORD_CHARS = `${ALPHANUM}ABCDEFGHIJKLMNOPQRSTUVWXYZ`;
const draw = (chars: string, n: number) => Array.from({ length: n }, () => chars[randomInt(chars.length)]).join('');

export interface StaticOrderDeps {
  clock: Clock;
  orders: OrderService;
  fulfilment: Fulfilment;
  inventory: StaticInventoryRepository;
  allocations: StaticAllocationRepository;
  catalogue: CatalogueRepository;
  users: UserRepository;
  audit: AuditLogRepository;
  /** Seals the allocations' gateway passwords, as for rotating proxy accounts. */
  passwords: SealedBox;
  /** The store's currency (CURRENCY): prices are listed in it. */
  currency: string;
  /** How much stock one customer's unpaid orders may hold. */
  unpaid: UnpaidStaticLimits;
}

/**
 * Buying, renewing and granting static IPs (docs/business-rules.md#static-residential-ips). Orders go
 * through the orders module like traffic; stock is reserved in the order's transaction and turned into
 * allocations in the paying one, which the orders module hands to this module's fulfillers.
 */
export class StaticOrderService {
  constructor(private readonly d: StaticOrderDeps) {
    d.fulfilment.fulfil('static', (trx, order, now) => this.fulfilPurchase(trx, order, now));
    d.fulfilment.fulfil('static-renew', (trx, order, now) => this.fulfilRenewal(trx, order, now));
  }

  /**
   * `POST /buy/static`: list price × quantity; the IPs are reserved with the order, within what one
   * customer may hold unpaid, or the order is not made. The order (and so its reservation) lives
   * STATIC_ORDER_TTL_MINUTES.
   */
  async buy(userId: number, body: BuyStaticBody, lang: Lang, placedBy: ApiKeyAuth | null = null): Promise<OrderRow> {
    const { item, currency } = await this.purchaseItem(body, true);
    return this.d.orders.openOrder(
      userId,
      { kind: 'static', items: [item], amount: item.unitPrice * item.quantity, currency, ttlMinutes: STATIC_ORDER_TTL_MINUTES, placedBy },
      body.payMethod,
      lang,
      async (trx, order) => {
        const ids = await this.d.inventory.reserve({ ...body, orderId: order.id, now: order.created_at }, trx);
        if (!ids) throw new AppError('OUT_OF_STOCK');
        await assertMayHoldUnpaid(this.d.inventory, this.d.unpaid, { ...body, userId, now: order.created_at }, trx);
      },
    );
  }

  /** `POST /buy/static-renew`: each IP at its current list price for `days`. */
  async renew(userId: number, body: BuyStaticRenewBody, lang: Lang, placedBy: ApiKeyAuth | null = null): Promise<OrderRow> {
    const owned = await this.owned(userId, body.staticProxyIds);
    const { items, currency } = await this.renewalItems(owned, body.days, true);
    const amount = items.reduce((sum, i) => sum + i.unitPrice, 0);
    return this.d.orders.openOrder(userId, { kind: 'static-renew', items, amount, currency, placedBy }, body.payMethod, lang);
  }

  /** `POST /manage/static-recharge`: free IPs allocated at no charge, or none (OUT_OF_STOCK). */
  async grant(body: StaticRechargeBody, actor: Actor): Promise<OrderRow> {
    const user = await this.d.users.findById(body.userId);
    if (!user) throw new AppError('USER_UNKNOWN');
    const { item } = await this.purchaseItem(body, false, 0);
    return this.d.orders.grantFree(user.id, { kind: 'static', items: [item] }, body.note, actor.id, async (trx, paid) => {
      await this.d.audit.write({ actorId: actor.id, action: 'static.grant', target: `user:${user.id}`, after: { orderNo: paid.order_no, ...body }, ip: actor.ip }, trx);
    });
  }

  /** `POST /manage/static-renew-recharge`: IPs extended at no charge; one order per customer concerned. */
  async grantRenewal(body: StaticRenewRechargeBody, actor: Actor): Promise<OrderRow[]> {
    const all = await this.d.allocations.byIds(body.staticProxyIds);
    if (all.length !== body.staticProxyIds.length) throw new AppError('NOT_FOUND');
    if (all.some((a) => a.status === 'released')) throw new AppError('STATIC_RELEASED');
    const byUser = new Map<number, AllocationView[]>();
    for (const a of all) byUser.set(a.user_id, [...(byUser.get(a.user_id) ?? []), a]);
    const out: OrderRow[] = [];
    for (const [userId, mine] of byUser) {
      const items = (await this.renewalItems(mine, body.days, false)).items.map((i) => ({ ...i, unitPrice: 0 }));
      out.push(
        await this.d.orders.grantFree(userId, { kind: 'static-renew', items }, body.note, actor.id, async (trx, paid) => {
          await this.d.audit.write(
            { actorId: actor.id, action: 'static.grant-renewal', target: `user:${userId}`, after: { orderNo: paid.order_no, staticProxyIds: mine.map((a) => a.id), days: body.days, note: body.note }, ip: actor.ip },
            trx,
          );
        }),
      );
    }
    return out;
  }

  private async purchaseItem(
    q: { regionId: number; businessId: number; days: number; quantity: number },
    customer: boolean,
    unitPrice?: number,
  ): Promise<{ item: StaticItem; currency: string }> {
    const offer = await this.d.catalogue.staticOffer({ ...q, enabledOnly: customer });
    if (!offer) throw new AppError('NOT_FOUND');
    // A customer buys only what is listed; an admin may grant any region, line and number of days.
    if (customer && offer.price === null) throw new AppError('GOODS_UNKNOWN');
    const item: StaticItem = {
      type: 'static',
      name: toLocalized(offer.region),
      regionId: q.regionId,
      businessId: q.businessId,
      business: toLocalized(offer.business),
      days: q.days,
      quantity: q.quantity,
      unitPrice: unitPrice ?? offer.price!,
    };
    return { item, currency: offer.currency ?? this.d.currency };
  }

  private async renewalItems(allocations: AllocationView[], days: number, customer: boolean): Promise<{ items: StaticRenewItem[]; currency: string }> {
    const items: StaticRenewItem[] = [];
    let currency = this.d.currency;
    for (const a of allocations) {
      const offer = await this.d.catalogue.staticOffer({ regionId: a.region_id, businessId: a.business_id, days, enabledOnly: customer });
      if (!offer || (customer && offer.price === null)) throw new AppError('GOODS_UNKNOWN');
      currency = offer.currency ?? currency;
      items.push({ type: 'static-renew', name: toLocalized(offer.region), staticProxyId: a.id, ip: a.exit_ip, days, quantity: 1, unitPrice: offer.price ?? 0 });
    }
    return { items, currency };
  }

  /** The caller's allocations with these ids: another customer's id is "not found"; a released one cannot be renewed. */
  private async owned(userId: number, ids: number[]): Promise<AllocationView[]> {
    const found = (await this.d.allocations.byIds(ids)).filter((a) => a.user_id === userId);
    if (found.length !== ids.length) throw new AppError('NOT_FOUND');
    if (found.some((a) => a.status === 'released')) throw new AppError('STATIC_RELEASED');
    return found;
  }

  /**
   * A paid purchase: its reserved rows become the customer's allocations, each with its own login. An
   * order paid by hand after it expired may have lost its reservation: free rows are taken instead, or
   * the payment is refused (OUT_OF_STOCK) and rolls back.
   */
  private async fulfilPurchase(trx: Trx, order: OrderRow, now: Date): Promise<void> {
    const at = iso(now);
    for (const item of orderItems(order)) {
      if (item.type !== 'static') continue;
      const rows = await this.d.inventory.reservedBy(order.id, item.regionId, item.businessId, trx);
      const ids = rows.slice(0, item.quantity).map((r) => r.id);
      if (ids.length < item.quantity) {
        const more = await this.d.inventory.reserve({ regionId: item.regionId, businessId: item.businessId, quantity: item.quantity - ids.length, orderId: order.id, now: at }, trx);
        if (!more) throw new AppError('OUT_OF_STOCK');
        ids.push(...more);
      }
      for (const inventoryId of ids) await this.allocate(trx, order, item, inventoryId, now);
    }
  }

  private async allocate(trx: Trx, order: OrderRow, item: StaticItem, inventoryId: number, now: Date): Promise<void> {
    const at = iso(now);
    let accountId: number | null = null;
    // A taken name (one chance in 36^9 per existing login) draws another.
    while (accountId === null) {
      accountId = await this.d.allocations.insertLogin({ userId: order.user_id, username: `s${draw(ALPHANUM, 9)}`, passwordSealed: this.d.passwords.seal(draw(PASSWORD_CHARS, 16)), now: at }, trx);
    }
    const allocationId = await this.d.allocations.insert(
      {
        user_id: order.user_id,
        account_id: accountId,
        inventory_id: inventoryId,
        region_id: item.regionId,
        business_id: item.businessId,
        order_id: order.id,
        starts_at: at,
        expires_at: iso(addMs(now, item.days * DAY)),
        created_at: at,
        updated_at: at,
      },
      trx,
    );
    await this.d.inventory.markAllocated(inventoryId, at, trx);
    await this.d.inventory.addEvent(inventoryId, { event: 'allocated', user_id: order.user_id, allocation_id: allocationId, order_id: order.id }, trx);
  }

  /**
   * A paid renewal extends each IP once, from the later of its expiry and the payment. One released
   * between ordering and paying stays released: the order's items name it, for the admin to refund.
   */
  private async fulfilRenewal(trx: Trx, order: OrderRow, now: Date): Promise<void> {
    const at = iso(now);
    const items = orderItems(order).filter((i) => i.type === 'static-renew');
    const current = new Map((await this.d.allocations.byIds(items.map((i) => i.staticProxyId), trx)).map((a) => [a.id, a]));
    for (const item of items) {
      const a = current.get(item.staticProxyId);
      if (!a || a.user_id !== order.user_id || a.status === 'released') continue;
      const from = a.expires_at > at ? new Date(a.expires_at) : now;
      await this.d.allocations.extend(a.id, iso(addMs(from, item.days * DAY)), at, trx);
      // Back from grace: the same IP, held again.
      await this.d.inventory.setStatus([a.inventory_id], ['grace'], 'allocated', { now: at }, trx);
    }
  }
}

import type { OrderItemDto, PaidBy, PayMethod, ReviewReason } from '@resi/contract';
import type { Kysely, Transaction } from 'kysely';
import { type OrderRow, orderItems } from '../../db/rows';
import type { Database } from '../../db/schema';
import { type Clock, DAY, addMs, iso } from '../../lib/clock';
import type { PaymentRecorder, ProviderEvent } from '../../payments/provider';
import type { AuditLogRepository } from '../audit/audit-log-repository';
import { TrafficRepository } from '../traffic/traffic-repository';
import { OrderRepository } from './order-repository';
import { PaymentEventRepository } from './payment-event-repository';

export type EventOutcome =
  | { result: 'credited'; order: OrderRow }
  | { result: 'duplicate'; order: OrderRow | undefined }
  | { result: 'review'; reason: ReviewReason; order: OrderRow | undefined };

/** Gives a paid order's items of one type to its owner, inside the paying transaction; throws to refuse the payment. */
export type Fulfiller = (trx: Transaction<Database>, order: OrderRow, now: Date) => Promise<void>;

export interface MarkPaidOptions {
  by: PaidBy;
  providerRef?: string | null;
  /** Admin verification also accepts an order that expired while the admin was checking the payment. */
  allowExpired?: boolean;
  actor?: { id: number; ip: string | null };
}

/**
 * The only way an order becomes paid (docs/business-rules.md#crediting-exactly-once): one transaction flips `pending → paid` with a
 * conditional update and credits the order in the same transaction. Whoever comes second — a replayed
 * webhook, the poll, a second admin click — changes no row and gets the order as it now is.
 */
export class Fulfilment implements PaymentRecorder {
  private readonly orders: OrderRepository;
  private readonly events: PaymentEventRepository;
  private readonly grants: TrafficRepository;
  private readonly fulfillers = new Map<OrderItemDto['type'], Fulfiller>();
  private readonly paidListeners: Fulfiller[] = [];

  constructor(
    private readonly db: Kysely<Database>,
    private readonly clock: Clock,
    private readonly audit: AuditLogRepository,
  ) {
    this.orders = new OrderRepository(db);
    this.events = new PaymentEventRepository(db);
    this.grants = new TrafficRepository(db);
  }

  async markPaid(orderNo: string, opts: MarkPaidOptions): Promise<{ credited: boolean; order: OrderRow | undefined }> {
    return this.db.transaction().execute((trx) => this.markPaidIn(trx, orderNo, opts));
  }

  /** Whether this provider's event was recorded already (the USDT watcher skips those). */
  isRecorded(provider: PayMethod, eventId: string): Promise<boolean> {
    return this.events.exists(provider, eventId);
  }

  /** Records a verified provider event once and, when it matches its open order exactly, pays the order. */
  async recordEvent(ev: ProviderEvent): Promise<EventOutcome> {
    return this.db.transaction().execute(async (trx) => {
      const now = iso(this.clock.now());
      const eventId = await this.events.insertOnce(
        {
          provider: ev.provider,
          event_id: ev.eventId,
          order_no: ev.orderNo,
          amount: ev.display,
          asset: ev.currency,
          result: 'review',
          reason: null,
          review_status: null,
          payload: ev.payload === undefined ? null : JSON.stringify(ev.payload),
          created_at: now,
        },
        trx,
      );
      const order = ev.orderNo ? await this.orders.find(ev.orderNo, trx) : undefined;
      if (eventId === undefined) return { result: 'duplicate', order };

      const reason = this.mismatch(ev, order, now);
      if (reason || !order) {
        const r = reason ?? 'ORDER_UNKNOWN';
        await this.events.setOutcome(eventId, { result: 'review', reason: r, review_status: 'open' }, trx);
        return { result: 'review', reason: r, order };
      }
      const paid = await this.markPaidIn(trx, order.order_no, { by: ev.by, providerRef: ev.eventId });
      if (!paid.credited) {
        // Lost a race with another path that paid or expired it a moment ago.
        const r: ReviewReason = paid.order?.status === 'paid' ? 'ALREADY_PAID' : 'ORDER_NOT_PENDING';
        await this.events.setOutcome(eventId, { result: 'review', reason: r, review_status: 'open' }, trx);
        return { result: 'review', reason: r, order: paid.order };
      }
      await this.events.setOutcome(eventId, { result: 'credited' }, trx);
      return { result: 'credited', order: paid.order! };
    });
  }

  private mismatch(ev: ProviderEvent, order: OrderRow | undefined, now: string): ReviewReason | null {
    if (ev.problem) return ev.problem;
    if (!order) return 'ORDER_UNKNOWN';
    if (order.pay_method !== ev.provider) return 'METHOD_MISMATCH';
    if (order.status === 'paid') return 'ALREADY_PAID';
    if (order.status !== 'pending' || order.expires_at <= now) return 'ORDER_NOT_PENDING';
    if (order.pay_currency !== ev.currency) return 'CURRENCY_MISMATCH';
    if (Number(order.pay_amount) !== ev.amount) return 'AMOUNT_MISMATCH';
    return null;
  }

  async markPaidIn(trx: Transaction<Database>, orderNo: string, opts: MarkPaidOptions) {
    const now = this.clock.now();
    const before = await this.orders.find(orderNo, trx);
    const changed = await this.orders.markPaid(orderNo, { at: iso(now), by: opts.by, providerRef: opts.providerRef, allowExpired: opts.allowExpired }, trx);
    const order = await this.orders.find(orderNo, trx);
    if (!changed || !order) return { credited: false, order };

    await this.credit(trx, order, now);
    for (const listener of this.paidListeners) await listener(trx, order, now);
    if (opts.actor) {
      await this.audit.write(
        {
          actorId: opts.actor.id,
          action: 'order.verify',
          target: `order:${orderNo}`,
          before: { status: before?.status },
          after: { status: order.status, paidBy: order.paid_by },
          ip: opts.actor.ip,
        },
        trx,
      );
    }
    return { credited: true, order };
  }

  /**
   * Lets another module fulfil the items of its type (static IPs: the static module), in the paying
   * transaction. The orders module knows no module that sells through it.
   */
  fulfil(type: Exclude<OrderItemDto['type'], 'traffic'>, fulfiller: Fulfiller): void {
    this.fulfillers.set(type, fulfiller);
  }

  /**
   * Runs for every order that becomes paid, whatever it holds, in the paying transaction after the items
   * were fulfilled (the distributor's commission: modules/distribution). Throwing refuses the payment.
   */
  onPaid(listener: Fulfiller): void {
    this.paidListeners.push(listener);
  }

  /**
   * What a paid order gives its owner: traffic here, other items by their module. An item nobody fulfils
   * throws, so the payment rolls back rather than being taken for nothing.
   */
  private async credit(trx: Transaction<Database>, order: OrderRow, now: Date): Promise<void> {
    const items = orderItems(order);
    const traffic = items.filter((i) => i.type === 'traffic');
    if (traffic.length > 0) {
      const bytes = traffic.reduce((sum, i) => sum + i.bytes * i.quantity, 0);
      const days = Math.max(...traffic.map((i) => i.validityDays));
      await this.grants.addGrant({ user_id: order.user_id, order_id: order.id, bytes, expires_at: iso(addMs(now, days * DAY)), created_at: iso(now) }, trx);
    }
    for (const type of new Set(items.map((i) => i.type))) {
      if (type === 'traffic') continue;
      const fulfiller = this.fulfillers.get(type);
      if (!fulfiller) throw new Error(`no fulfiller for order items of type ${type} (order ${order.order_no})`);
      await fulfiller(trx, order, now);
    }
  }
}

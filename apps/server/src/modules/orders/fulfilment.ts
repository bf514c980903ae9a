import type { PaidBy, PayMethod, ReviewReason } from '@resi/contract';
import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../../db/schema';
import { type Clock, DAY, addMs, iso } from '../../lib/clock';
import type { AuditLog } from '../audit/audit-log';
import { type OrderRow, orderItems } from './order-dto';

/** A payment as a provider reported it, after its signature or source was verified. */
export interface ProviderEvent {
  provider: PayMethod;
  /** The provider's own id of this payment (transaction id, event id): each is acted on once. */
  eventId: string;
  orderNo: string | null;
  /** In the provider's unit, compared with the order's pay_amount and pay_currency. */
  amount: number;
  currency: string;
  /** The amount as the provider wrote it, for people reading the review list. */
  display: string;
  by: PaidBy;
  payload?: unknown;
  /** Set by an adapter when a verified payment is not ours to credit (paid to another merchant account, sent before its order existed). */
  problem?: ReviewReason;
}

// The contract's list, so the console translates every reason the server can write.
export type { ReviewReason };

export type EventOutcome =
  | { result: 'credited'; order: OrderRow }
  | { result: 'duplicate'; order: OrderRow | undefined }
  | { result: 'review'; reason: ReviewReason; order: OrderRow | undefined };

export interface MarkPaidOptions {
  by: PaidBy;
  providerRef?: string | null;
  /** Admin verification also accepts an order that expired while the admin was checking the payment. */
  allowExpired?: boolean;
  actor?: { id: number; ip: string | null };
}

/**
 * The only way an order becomes paid (DESIGN §5.4): one transaction flips `pending → paid` with a
 * conditional update and credits the order in the same transaction. Whoever comes second — a replayed
 * webhook, the poll, a second admin click — changes no row and gets the order as it now is.
 */
export class Fulfilment {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly clock: Clock,
    private readonly audit: AuditLog,
  ) {}

  async markPaid(orderNo: string, opts: MarkPaidOptions): Promise<{ credited: boolean; order: OrderRow | undefined }> {
    return this.db.transaction().execute((trx) => this.markPaidIn(trx, orderNo, opts));
  }

  /** Records a verified provider event once and, when it matches its open order exactly, pays the order. */
  async recordEvent(ev: ProviderEvent): Promise<EventOutcome> {
    return this.db.transaction().execute(async (trx) => {
      const now = iso(this.clock.now());
      const inserted = await trx
        .insertInto('payment_events')
        .values({
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
        })
        .onConflict((oc) => oc.columns(['provider', 'event_id']).doNothing())
        .returning('id')
        .executeTakeFirst();
      const order = ev.orderNo ? await this.findOrder(trx, ev.orderNo) : undefined;
      if (!inserted) return { result: 'duplicate', order };

      const reason = this.mismatch(ev, order, now);
      if (reason || !order) {
        const r = reason ?? 'ORDER_UNKNOWN';
        await trx.updateTable('payment_events').set({ result: 'review', reason: r, review_status: 'open' }).where('id', '=', inserted.id).execute();
        return { result: 'review', reason: r, order };
      }
      const paid = await this.markPaidIn(trx, order.order_no, { by: ev.by, providerRef: ev.eventId });
      if (!paid.credited) {
        // Lost a race with another path that paid or expired it a moment ago.
        const r: ReviewReason = paid.order?.status === 'paid' ? 'ALREADY_PAID' : 'ORDER_NOT_PENDING';
        await trx.updateTable('payment_events').set({ result: 'review', reason: r, review_status: 'open' }).where('id', '=', inserted.id).execute();
        return { result: 'review', reason: r, order: paid.order };
      }
      await trx.updateTable('payment_events').set({ result: 'credited' }).where('id', '=', inserted.id).execute();
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

  private findOrder(db: Kysely<Database>, orderNo: string): Promise<OrderRow | undefined> {
    return db.selectFrom('orders').selectAll().where('order_no', '=', orderNo).executeTakeFirst();
  }

  async markPaidIn(trx: Transaction<Database>, orderNo: string, opts: MarkPaidOptions) {
    const now = this.clock.now();
    const nowIso = iso(now);
    const before = await this.findOrder(trx, orderNo);
    let update = trx
      .updateTable('orders')
      .set({ status: 'paid', paid_at: nowIso, paid_by: opts.by, updated_at: nowIso })
      .where('order_no', '=', orderNo);
    if (opts.providerRef) update = update.set({ provider_ref: opts.providerRef });
    update = opts.allowExpired
      ? update.where('status', 'in', ['pending', 'expired'])
      : update.where('status', '=', 'pending').where('expires_at', '>', nowIso);
    const { numUpdatedRows } = await update.executeTakeFirst();
    const order = await this.findOrder(trx, orderNo);
    if (numUpdatedRows !== 1n || !order) return { credited: false, order };

    await this.credit(trx, order, now);
    if (opts.actor) {
      await this.audit.write(trx, {
        actorId: opts.actor.id,
        action: 'order.verify',
        target: `order:${orderNo}`,
        before: { status: before?.status },
        after: { status: order.status, paidBy: order.paid_by },
        ip: opts.actor.ip,
      });
    }
    return { credited: true, order };
  }

  /** What a paid order gives its owner. Static orders are fulfilled by the static module (a later issue). */
  private async credit(trx: Transaction<Database>, order: OrderRow, now: Date): Promise<void> {
    const traffic = orderItems(order).filter((i) => i.type === 'traffic');
    if (traffic.length === 0) return;
    const bytes = traffic.reduce((sum, i) => sum + i.bytes * i.quantity, 0);
    const days = Math.max(...traffic.map((i) => i.validityDays));
    await trx
      .insertInto('traffic_grants')
      .values({ user_id: order.user_id, order_id: order.id, bytes, expires_at: iso(addMs(now, days * DAY)), created_at: iso(now) })
      .execute();
  }
}

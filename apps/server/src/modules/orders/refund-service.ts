import type { OrderItemDto, RefundTakeBackDto } from '@resi/contract';
import type { Kysely, Transaction } from 'kysely';
import { type OrderRow, orderItems } from '../../db/rows';
import type { Database } from '../../db/schema';
import { type Clock, iso } from '../../lib/clock';
import type { CutoffBus, CutoffEvent } from '../../lib/cutoff-bus';
import { AppError } from '../../shared/errors';
import type { AuditLogRepository } from '../audit/audit-log-repository';
import { TrafficRepository } from '../traffic/traffic-repository';
import { OrderRepository } from './order-repository';
import type { AdminOrderRow } from './order-service';

type Trx = Transaction<Database>;
type Part = Partial<RefundTakeBackDto>;

/** Takes back what a refunded order's items of one type gave (static IPs: the static module). */
export interface TakeBack {
  /** What a refund would take back now; reads only. */
  preview(order: OrderRow, now: Date): Promise<Part>;
  /** Takes it back inside the refund's transaction; answers what it took and whom the gateways must re-read once it commits. */
  apply(trx: Trx, order: OrderRow, now: Date): Promise<{ taken: Part; cutoffs: CutoffEvent[] }>;
}

export interface RefundResult {
  order: AdminOrderRow;
  takeBack: RefundTakeBackDto;
}

const nothing = (): RefundTakeBackDto => ({ trafficBytes: 0, staticIps: [], renewals: [], commission: null });
const merge = (into: RefundTakeBackDto, part: Part) => {
  into.trafficBytes += part.trafficBytes ?? 0;
  into.staticIps.push(...(part.staticIps ?? []));
  into.renewals.push(...(part.renewals ?? []));
  if (part.commission) into.commission = part.commission;
};

/**
 * An admin's refund (docs/business-rules.md#refunds): `paid → refunded` once, by a conditional update, and
 * in the same transaction everything the order gave is taken back — the unused rest of its traffic grant
 * here, other items by the module that fulfilled them — and an audit row is written. The money itself goes
 * back outside the console; the note says how.
 */
export class RefundService {
  private readonly orders: OrderRepository;
  private readonly traffic: TrafficRepository;
  private readonly takeBacks = new Map<OrderItemDto['type'], TakeBack>();
  private readonly everyRefund: TakeBack[] = [];

  constructor(
    private readonly db: Kysely<Database>,
    private readonly clock: Clock,
    private readonly audit: AuditLogRepository,
    private readonly cutoffs?: Pick<CutoffBus, 'publish'>,
  ) {
    this.orders = new OrderRepository(db);
    this.traffic = new TrafficRepository(db);
  }

  /** Lets the module that fulfils items of `type` take them back; the orders module knows none of them. */
  takeBack(type: Exclude<OrderItemDto['type'], 'traffic'>, handler: TakeBack): void {
    this.takeBacks.set(type, handler);
  }

  /**
   * Takes part in every refund, whatever the order holds (the commission reversal: modules/distribution);
   * its apply runs inside the refund's transaction, and throwing refuses the refund.
   */
  onRefund(handler: TakeBack): void {
    this.everyRefund.push(handler);
  }

  /** `GET /manage/order-refund`: the order and what refunding it would take back now. */
  async preview(orderNo: string): Promise<RefundResult> {
    const order = await this.orders.findForAdmin(orderNo);
    if (!order) throw new AppError('NOT_FOUND');
    this.assertRefundable(order);
    const now = this.clock.now();
    const takeBack = nothing();
    const grant = await this.traffic.grantOfOrder(order.id);
    if (grant && grant.expires_at > iso(now)) takeBack.trafficBytes = Math.max(0, Number(grant.bytes) - Number(grant.used_bytes));
    for (const handler of [...this.handlersFor(order), ...this.everyRefund]) merge(takeBack, await handler.preview(order, now));
    return { order, takeBack };
  }

  /** `POST /manage/order-refund`: refunds a paid order once; a second refund is ORDER_ALREADY_REFUNDED. */
  async refund(orderNo: string, note: string, actor: { id: number; ip: string | null }): Promise<RefundResult> {
    const cutoffs: CutoffEvent[] = [];
    const result = await this.db.transaction().execute(async (trx) => {
      const now = this.clock.now();
      const at = iso(now);
      const before = await this.orders.find(orderNo, trx);
      if (!before) throw new AppError('NOT_FOUND');
      if (!(await this.orders.markRefunded(orderNo, at, trx))) {
        // Whoever came first may have refunded it while this one waited for the row.
        this.assertRefundable((await this.orders.find(orderNo, trx)) ?? before);
        throw new AppError('ORDER_ALREADY_REFUNDED');
      }
      const balanceBefore = await this.traffic.balance(before.user_id, at, trx);
      const takeBack = nothing();

      const grant = await this.traffic.grantOfOrder(before.id, trx);
      const after = grant ? await this.traffic.cutToUsed(grant.id, at, trx) : undefined;
      if (grant && after !== undefined) {
        takeBack.trafficBytes = Number(grant.bytes) - after;
        cutoffs.push({ userId: before.user_id });
      }
      for (const handler of this.handlersFor(before)) {
        const done = await handler.apply(trx, before, now);
        merge(takeBack, done.taken);
        cutoffs.push(...done.cutoffs);
      }

      // The order's commission is reversed in this transaction (docs/business-rules.md#refunds).
      for (const handler of this.everyRefund) {
        const done = await handler.apply(trx, before, now);
        merge(takeBack, done.taken);
        cutoffs.push(...done.cutoffs);
      }

      const order = (await this.orders.findForAdmin(orderNo, trx))!;
      await this.audit.write(
        {
          actorId: actor.id,
          action: 'order.refund',
          target: `order:${orderNo}`,
          before: { status: before.status, balanceBytes: balanceBefore },
          after: { status: order.status, note, takeBack, balanceBytes: await this.traffic.balance(before.user_id, at, trx) },
          ip: actor.ip,
        },
        trx,
      );
      return { order, takeBack };
    });
    // Once committed, every gateway re-reads these users now rather than at its next poll (docs/gateway.md#cut-off-timing).
    for (const e of cutoffs) await this.cutoffs?.publish(e);
    return result;
  }

  private assertRefundable(order: OrderRow): void {
    if (order.status === 'refunded') throw new AppError('ORDER_ALREADY_REFUNDED');
    if (order.status !== 'paid') throw new AppError('ORDER_NOT_PAID');
  }

  /** The handlers of the order's item types other than traffic; a type nobody takes back refuses the refund rather than leave it in place. */
  private handlersFor(order: OrderRow): TakeBack[] {
    const types = new Set(orderItems(order).map((i) => i.type));
    types.delete('traffic');
    return [...types].map((type) => {
      const handler = this.takeBacks.get(type);
      if (!handler) throw new Error(`no refund take-back for order items of type ${type} (order ${order.order_no})`);
      return handler;
    });
  }
}

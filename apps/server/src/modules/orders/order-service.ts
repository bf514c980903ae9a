import { type BuyDynamicBody, type Lang, ORDER_TTL_MINUTES, type OrderItemDto, type PayMethod, type RechargeBody } from '@resi/contract';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema';
import { AppError } from '../../shared/errors';
import { type Clock, MINUTE, addMs, iso } from '../../lib/clock';
import type { PaymentProvider, ProviderContext } from '../../payments/provider';
import type { AuditLog } from '../audit/audit-log';
import { toLocalized } from '../catalogue/catalogue-dto';
import type { PayConfigService } from '../payments/pay-config-service';
import { TrafficRepository } from '../traffic/traffic-repository';
import { expireDueOrders } from './expiry-job';
import type { Fulfilment } from './fulfilment';
import type { OrderRow } from './order-dto';
import { newOrderNo } from './order-no';
import { assertMayOpenOrder } from './open-order-cap';

export interface OrderServiceDeps {
  db: Kysely<Database>;
  clock: Clock;
  audit: AuditLog;
  fulfilment: Fulfilment;
  payConfigs: PayConfigService;
  providers: Map<PayMethod, PaymentProvider>;
  publicUrl: string;
  production: boolean;
  /** The store's currency (CURRENCY): a manual recharge is recorded in it like every other order. */
  currency: string;
  log: { error(obj: object, msg: string): void };
}

export class OrderService {
  constructor(private readonly d: OrderServiceDeps) {}

  /** `POST /buy/dynamic`: the price is snapshotted into the order; the provider says how to pay it. */
  async buyDynamic(userId: number, body: BuyDynamicBody, lang: Lang): Promise<OrderRow> {
    const { db, clock } = this.d;
    const pkg = await db.selectFrom('packages').selectAll().where('id', '=', body.goodsId).where('enabled', '=', 1).executeTakeFirst();
    if (!pkg) throw new AppError('GOODS_UNKNOWN');
    const { provider, config } = await this.offeredProvider(body.payMethod);
    const item: OrderItemDto = {
      type: 'traffic',
      name: toLocalized(pkg),
      bytes: Number(pkg.bytes),
      validityDays: pkg.validity_days,
      quantity: 1,
      unitPrice: Number(pkg.price),
    };
    const now = clock.now();
    const order = await db.transaction().execute(async (trx) => {
      await assertMayOpenOrder(trx, userId, iso(now));
      return trx
        .insertInto('orders')
        .values({
          order_no: newOrderNo('dynamic', now),
          user_id: userId,
          kind: 'dynamic',
          items: JSON.stringify([item]),
          amount: Number(pkg.price),
          currency: pkg.currency,
          pay_method: body.payMethod,
          payment: null,
          pay_amount: Number(pkg.price),
          pay_currency: pkg.currency,
          provider_ref: null,
          status: 'pending',
          paid_by: null,
          note: null,
          created_by: userId,
          expires_at: iso(addMs(now, ORDER_TTL_MINUTES * MINUTE)),
          paid_at: null,
          created_at: iso(now),
          updated_at: iso(now),
        })
        .returningAll()
        .executeTakeFirstOrThrow();
    });
    return this.startPayment(order, provider, { ...this.base(lang), config });
  }

  /** `POST /order-check`: the customer's own order as it is now, asking the provider when it can be asked. */
  async check(userId: number, orderNo: string, lang: Lang): Promise<OrderRow> {
    let order = await this.ownOrder(userId, orderNo);
    if (order.status === 'pending' && order.expires_at <= iso(this.d.clock.now())) {
      // Only this order: the job expires the others; a customer's poll must not do everyone's work.
      await expireDueOrders(this.d.db, this.d.clock, order.id);
      order = await this.ownOrder(userId, orderNo);
    }
    const provider = order.pay_method ? this.d.providers.get(order.pay_method as PayMethod) : undefined;
    if (order.status === 'pending' && provider?.query) {
      const ev = await provider.query(order, await this.context(order.pay_method as PayMethod, lang));
      if (ev) await this.d.fulfilment.recordEvent(ev);
      order = await this.ownOrder(userId, orderNo);
    }
    return order;
  }

  /** The sandbox's "fail" button, and a customer abandoning an order: only a pending order can be cancelled. */
  async cancel(orderNo: string): Promise<boolean> {
    const now = iso(this.d.clock.now());
    const res = await this.d.db
      .updateTable('orders')
      .set({ status: 'cancelled', updated_at: now })
      .where('order_no', '=', orderNo)
      .where('status', '=', 'pending')
      .executeTakeFirst();
    return res.numUpdatedRows === 1n;
  }

  /** An order by number for pages that are not the owner's API (the sandbox page): no owner check. */
  findForPage(orderNo: string): Promise<OrderRow | undefined> {
    return this.d.db.selectFrom('orders').selectAll().where('order_no', '=', orderNo).executeTakeFirst();
  }

  /** `POST /manage/recharge`: traffic credited by hand, recorded as a paid order of kind manual-recharge. */
  async recharge(body: RechargeBody, actor: { id: number; ip: string | null }): Promise<OrderRow> {
    const { db, clock, audit, fulfilment } = this.d;
    const user = await db.selectFrom('users').select(['id', 'email']).where('id', '=', body.userId).executeTakeFirst();
    if (!user) throw new AppError('USER_UNKNOWN');
    const now = clock.now();
    const item: OrderItemDto = {
      type: 'traffic',
      name: { en: 'Traffic recharge', 'zh-cn': '流量充值', zh: '流量充值' },
      bytes: body.bytes,
      validityDays: body.validityDays,
      quantity: 1,
      unitPrice: 0,
    };
    return db.transaction().execute(async (trx) => {
      const balanceBefore = await balanceOf(trx, user.id, now);
      const order = await trx
        .insertInto('orders')
        .values({
          order_no: newOrderNo('manual-recharge', now),
          user_id: user.id,
          kind: 'manual-recharge',
          items: JSON.stringify([item]),
          amount: 0,
          currency: this.d.currency,
          pay_method: null,
          payment: null,
          pay_amount: null,
          pay_currency: null,
          provider_ref: null,
          status: 'pending',
          paid_by: null,
          note: body.note,
          created_by: actor.id,
          expires_at: iso(addMs(now, MINUTE)),
          paid_at: null,
          created_at: iso(now),
          updated_at: iso(now),
        })
        .returningAll()
        .executeTakeFirstOrThrow();
      const paid = await fulfilment.markPaidIn(trx, order.order_no, { by: 'admin' });
      await audit.write(trx, {
        actorId: actor.id,
        action: 'user.recharge',
        target: `user:${user.id}`,
        before: { balanceBytes: balanceBefore },
        after: { orderNo: order.order_no, bytes: body.bytes, validityDays: body.validityDays, note: body.note, balanceBytes: await balanceOf(trx, user.id, now) },
        ip: actor.ip,
      });
      return paid.order!;
    });
  }

  async context(method: PayMethod, lang: Lang): Promise<ProviderContext> {
    return { ...this.base(lang), config: await this.d.payConfigs.get(method) };
  }

  private base(lang: Lang): Omit<ProviderContext, 'config'> {
    const { db, clock, publicUrl, production } = this.d;
    return { db, clock, publicUrl, production, lang };
  }

  private async offeredProvider(method: PayMethod) {
    const provider = this.d.providers.get(method);
    const config = provider ? await this.d.payConfigs.offered(method) : null;
    if (!provider || !config) throw new AppError('PAY_METHOD_UNAVAILABLE');
    return { provider, config };
  }

  private async startPayment(order: OrderRow, provider: PaymentProvider, ctx: ProviderContext): Promise<OrderRow> {
    try {
      const started = await provider.start(order, ctx);
      return await this.d.db
        .updateTable('orders')
        .set({ payment: JSON.stringify(started.payment), provider_ref: started.providerRef ?? null, updated_at: iso(this.d.clock.now()) })
        .where('id', '=', order.id)
        .returningAll()
        .executeTakeFirstOrThrow();
    } catch (err) {
      // No way to pay it: the order must not sit there holding a unique amount or stock.
      await this.cancel(order.order_no);
      if (err instanceof AppError) throw err;
      this.d.log.error({ err, orderNo: order.order_no, method: provider.method }, 'payment could not be started');
      throw new AppError('PAYMENT_START_FAILED', {}, 502);
    }
  }

  private async ownOrder(userId: number, orderNo: string): Promise<OrderRow> {
    const order = await this.d.db.selectFrom('orders').selectAll().where('order_no', '=', orderNo.toUpperCase()).executeTakeFirst();
    // Another user's order is "not found", never "forbidden" (DESIGN §3).
    if (!order || order.user_id !== userId) throw new AppError('NOT_FOUND');
    return order;
  }
}

/** The user's traffic balance as `GET /traffic` shows it: the sum of the unexpired grants' remainders. */
async function balanceOf(db: Kysely<Database>, userId: number, now: Date): Promise<number> {
  const grants = await new TrafficRepository(db).liveGrants(userId, iso(now));
  return grants.reduce((sum, g) => sum + Math.max(0, Number(g.bytes) - Number(g.used_bytes)), 0);
}

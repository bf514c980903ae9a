import { type BuyDynamicBody, type Lang, ORDER_TTL_MINUTES, type OrderItemDto, type OrderKind, type PayMethod, type RechargeBody, type intentionBody } from '@resi/contract';
import type { ApiKeyAuth, ApiKeyService } from '../api-keys/api-key-service';
import type { Kysely, Transaction } from 'kysely';
import type { z } from 'zod';
import type { OrderRow } from '../../db/rows';
import type { Database } from '../../db/schema';
import { type Clock, MINUTE, addMs, iso } from '../../lib/clock';
import type { PaymentProvider, ProviderContext } from '../../payments/provider';
import { AppError } from '../../shared/errors';
import type { AuditLogRepository } from '../audit/audit-log-repository';
import { UserRepository } from '../auth/user-repository';
import { CatalogueRepository } from '../catalogue/catalogue-repository';
import { toLocalized } from '../catalogue/catalogue-dto';
import type { PayConfigService } from '../payments/pay-config-service';
import { TrafficRepository } from '../traffic/traffic-repository';
import type { Fulfilment } from './fulfilment';
import { IntentionLogRepository } from './intention-log-repository';
import { newOrderNo } from './order-no';
import { OrderRepository } from './order-repository';
import { assertMayOpenOrder } from './open-order-cap';

export interface OrderServiceDeps {
  db: Kysely<Database>;
  clock: Clock;
  audit: AuditLogRepository;
  fulfilment: Fulfilment;
  payConfigs: PayConfigService;
  providers: Map<PayMethod, PaymentProvider>;
  publicUrl: string;
  production: boolean;
  /** The store's currency (CURRENCY): a manual recharge is recorded in it like every other order. */
  currency: string;
  log: { error(obj: object, msg: string): void };
  /** Checks an order placed with an API key against the key's daily cap. */
  apiKeys: Pick<ApiKeyService, 'assertWithinCap'>;
}

/** What a new order sells: its kind, frozen items and price. */
export interface NewOrder {
  kind: OrderKind;
  items: OrderItemDto[];
  amount: number;
  currency: string;
  /** Minutes it stays open unpaid; default ORDER_TTL_MINUTES. */
  ttlMinutes?: number;
  /** The API key placing it, whose daily spending cap it must fit in (docs/api.md#programs); null from the console. */
  placedBy?: ApiKeyAuth | null;
}

/** An order with its owner's email, as the admin desk shows it. */
export type AdminOrderRow = OrderRow & { user_email: string };

export class OrderService {
  private readonly orders: OrderRepository;
  private readonly users: UserRepository;
  private readonly catalogue: CatalogueRepository;
  private readonly traffic: TrafficRepository;
  private readonly intentions: IntentionLogRepository;

  constructor(private readonly d: OrderServiceDeps) {
    this.orders = new OrderRepository(d.db);
    this.users = new UserRepository(d.db);
    this.catalogue = new CatalogueRepository(d.db);
    this.traffic = new TrafficRepository(d.db);
    this.intentions = new IntentionLogRepository(d.db);
  }

  /** `POST /buy/dynamic`: the price is snapshotted into the order; the provider says how to pay it. */
  async buyDynamic(userId: number, body: BuyDynamicBody, lang: Lang, placedBy: ApiKeyAuth | null = null): Promise<OrderRow> {
    const pkg = await this.catalogue.findEnabledPackage(body.goodsId);
    if (!pkg) throw new AppError('GOODS_UNKNOWN');
    const item: OrderItemDto = {
      type: 'traffic',
      name: toLocalized(pkg),
      bytes: Number(pkg.bytes),
      validityDays: pkg.validity_days,
      quantity: 1,
      unitPrice: Number(pkg.price),
    };
    return this.openOrder(userId, { kind: 'dynamic', items: [item], amount: Number(pkg.price), currency: pkg.currency, placedBy }, body.payMethod, lang);
  }

  /**
   * A pending order the customer pays with `payMethod`, at most ORDER_OPEN_LIMIT open at once. `hold`
   * runs in the order's own transaction (the static module reserves stock there), so an order never
   * exists without what it holds, nor the other way round. It runs after the cap's count, which on
   * PostgreSQL locks the user's row: two `hold`s of one user run one after the other, the second seeing
   * what the first committed.
   */
  async openOrder(userId: number, o: NewOrder, payMethod: PayMethod, lang: Lang, hold?: (trx: Transaction<Database>, order: OrderRow) => Promise<void>): Promise<OrderRow> {
    const { db, clock } = this.d;
    const { provider, config } = await this.offeredProvider(payMethod);
    const now = clock.now();
    const order = await db.transaction().execute(async (trx) => {
      await assertMayOpenOrder(this.orders, userId, iso(now), trx);
      // After the open-order count, which locked the user's row: two orders of one key are checked in turn.
      if (o.placedBy) await this.d.apiKeys.assertWithinCap(o.placedBy, o.amount, trx);
      const row = await this.orders.insert(
        {
          order_no: newOrderNo(o.kind, now),
          user_id: userId,
          kind: o.kind,
          items: JSON.stringify(o.items),
          amount: o.amount,
          currency: o.currency,
          pay_method: payMethod,
          payment: null,
          pay_amount: o.amount,
          pay_currency: o.currency,
          provider_ref: null,
          status: 'pending',
          paid_by: null,
          note: null,
          created_by: userId,
          api_key_id: o.placedBy?.id ?? null,
          expires_at: iso(addMs(now, (o.ttlMinutes ?? ORDER_TTL_MINUTES) * MINUTE)),
          paid_at: null,
          created_at: iso(now),
          updated_at: iso(now),
        },
        trx,
      );
      if (hold) await hold(trx, row);
      return row;
    });
    return this.startPayment(order, provider, { ...this.base(lang), config });
  }

  /**
   * What an admin gives at no charge, recorded as an order of amount 0 paid by `admin` and fulfilled in
   * the same transaction as `audit`, which writes the action's audit row.
   */
  async grantFree(
    userId: number,
    o: Omit<NewOrder, 'amount' | 'currency'>,
    note: string,
    actorId: number,
    audit: (trx: Transaction<Database>, paid: OrderRow) => Promise<void>,
  ): Promise<OrderRow> {
    const now = this.d.clock.now();
    return this.d.db.transaction().execute(async (trx) => {
      const order = await this.orders.insert(
        {
          order_no: newOrderNo(o.kind, now),
          user_id: userId,
          kind: o.kind,
          items: JSON.stringify(o.items),
          amount: 0,
          currency: this.d.currency,
          pay_method: null,
          payment: null,
          pay_amount: null,
          pay_currency: null,
          provider_ref: null,
          status: 'pending',
          paid_by: null,
          note,
          created_by: actorId,
          expires_at: iso(addMs(now, MINUTE)),
          paid_at: null,
          created_at: iso(now),
          updated_at: iso(now),
        },
        trx,
      );
      const paid = await this.d.fulfilment.markPaidIn(trx, order.order_no, { by: 'admin' });
      await audit(trx, paid.order!);
      return paid.order!;
    });
  }

  /** `POST /order-check`: the customer's own order as it is now, asking the provider when it can be asked. */
  async check(userId: number, orderNo: string, lang: Lang): Promise<OrderRow> {
    let order = await this.ownOrder(userId, orderNo);
    if (order.status === 'pending' && order.expires_at <= iso(this.d.clock.now())) {
      // Only this order: the job expires the others; a customer's poll must not do everyone's work.
      await this.orders.expireDue(iso(this.d.clock.now()), order.id);
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
  cancel(orderNo: string): Promise<boolean> {
    return this.orders.cancelPending(orderNo, iso(this.d.clock.now()));
  }

  /**
   * `POST /order-cancel`: a customer abandons an unpaid order of theirs, which frees what it held (a unique
   * USDT amount, static IPs, a place under the open-order cap). A payment that still arrives for it goes to
   * the admins' review, like one for an expired order (fulfilment.ts).
   */
  async cancelOwn(userId: number, orderNo: string): Promise<OrderRow> {
    const order = await this.ownOrder(userId, orderNo);
    if (order.status === 'pending' && (await this.cancel(order.order_no))) return this.ownOrder(userId, orderNo);
    // Paid, expired or cancelled meanwhile (a webhook a moment earlier): what it is now.
    const now = await this.ownOrder(userId, orderNo);
    throw new AppError('ORDER_NOT_CANCELLABLE', { status: now.status });
  }

  /** An order by number for pages that are not the owner's API (the sandbox page): no owner check. */
  findForPage(orderNo: string): Promise<OrderRow | undefined> {
    return this.orders.find(orderNo);
  }

  /** `POST /logs/intention-purchase`: what a customer was about to buy. */
  async logIntention(userId: number, body: z.infer<typeof intentionBody>): Promise<void> {
    await this.intentions.add({ user_id: userId, kind: body.kind, goods_id: body.goodsId ?? null, pay_method: body.payMethod ?? null, created_at: iso(this.d.clock.now()) });
  }

  /**
   * `POST /manage/order-verify`: an admin confirms a payment by hand. An order paid by someone else a moment
   * ago is what the admin wanted, so it is answered as it is (`credited: false`).
   */
  async verify(orderNo: string, actor: { id: number; ip: string | null }): Promise<{ credited: boolean; order: AdminOrderRow }> {
    const res = await this.d.fulfilment.markPaid(orderNo, { by: 'admin', allowExpired: true, actor });
    if (!res.order) throw new AppError('NOT_FOUND');
    if (!res.credited && res.order.status !== 'paid') throw new AppError('ORDER_NOT_PENDING', { status: res.order.status });
    const owner = await this.users.findById(res.order.user_id);
    if (!owner) throw new Error(`order ${orderNo} has no owner`);
    return { credited: res.credited, order: { ...res.order, user_email: owner.email } };
  }

  /** `POST /manage/recharge`: traffic credited by hand, recorded as a paid order of kind manual-recharge. */
  async recharge(body: RechargeBody, actor: { id: number; ip: string | null }): Promise<AdminOrderRow> {
    const user = await this.users.findById(body.userId);
    if (!user) throw new AppError('USER_UNKNOWN');
    const now = iso(this.d.clock.now());
    const balanceBefore = await this.traffic.balance(user.id, now);
    const item: OrderItemDto = {
      type: 'traffic',
      name: { en: 'Traffic recharge', 'zh-cn': '流量充值', zh: '流量充值' },
      bytes: body.bytes,
      validityDays: body.validityDays,
      quantity: 1,
      unitPrice: 0,
    };
    const order = await this.grantFree(user.id, { kind: 'manual-recharge', items: [item] }, body.note, actor.id, async (trx, paid) => {
      await this.d.audit.write(
        {
          actorId: actor.id,
          action: 'user.recharge',
          target: `user:${user.id}`,
          before: { balanceBytes: balanceBefore },
          after: { orderNo: paid.order_no, bytes: body.bytes, validityDays: body.validityDays, note: body.note, balanceBytes: await this.traffic.balance(user.id, now, trx) },
          ip: actor.ip,
        },
        trx,
      );
    });
    return { ...order, user_email: user.email };
  }

  async context(method: PayMethod, lang: Lang): Promise<ProviderContext> {
    return { ...this.base(lang), config: await this.d.payConfigs.get(method) };
  }

  private base(lang: Lang): Omit<ProviderContext, 'config'> {
    const { clock, publicUrl, production } = this.d;
    return { orders: this.orders, clock, publicUrl, production, lang };
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
      return await this.orders.setPayment(order.id, { instruction: JSON.stringify(started.payment), providerRef: started.providerRef ?? null, now: iso(this.d.clock.now()) });
    } catch (err) {
      // No way to pay it: the order must not sit there holding a unique amount or stock.
      await this.cancel(order.order_no);
      if (err instanceof AppError) throw err;
      this.d.log.error({ err, orderNo: order.order_no, method: provider.method }, 'payment could not be started');
      throw new AppError('PAYMENT_START_FAILED', {}, 502);
    }
  }

  private async ownOrder(userId: number, orderNo: string): Promise<OrderRow> {
    const order = await this.orders.find(orderNo.toUpperCase());
    // Another user's order is "not found", never "forbidden" (docs/api.md#errors).
    if (!order || order.user_id !== userId) throw new AppError('NOT_FOUND');
    return order;
  }
}

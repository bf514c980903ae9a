import type { ManageOrderQuery, MyOrderQuery, PaidBy, PayMethod } from '@resi/contract';
import { type Insertable, type Kysely, PostgresAdapter, type Transaction } from 'kysely';
import { containsText } from '../../db/like';
import type { OrderRow } from '../../db/rows';
import type { Database, OrderTable } from '../../db/schema';
import type { PaymentOrders } from '../../payments/provider';

const DAY_END = 'T23:59:59.999Z';

type Trx = Transaction<Database>;

/** Every query on `orders`. Methods take the caller's transaction when they are part of one. */
export class OrderRepository implements PaymentOrders {
  constructor(private readonly db: Kysely<Database>) {}

  /** The order with this number, whoever owns it: callers that answer a customer check the owner. */
  find(orderNo: string, trx?: Trx): Promise<OrderRow | undefined> {
    return (trx ?? this.db).selectFrom('orders').selectAll().where('order_no', '=', orderNo).executeTakeFirst();
  }

  insert(order: Insertable<OrderTable>, trx?: Trx): Promise<OrderRow> {
    return (trx ?? this.db).insertInto('orders').values(order).returningAll().executeTakeFirstOrThrow();
  }

  /**
   * Flips the order to paid when it is still open (pending and unexpired, or with `allowExpired` pending or
   * expired): one conditional update, so of two callers racing only one changes the row. True when this one did.
   */
  async markPaid(orderNo: string, paid: { at: string; by: PaidBy; providerRef?: string | null; allowExpired?: boolean }, trx?: Trx): Promise<boolean> {
    let update = (trx ?? this.db)
      .updateTable('orders')
      .set({ status: 'paid', paid_at: paid.at, paid_by: paid.by, updated_at: paid.at })
      .where('order_no', '=', orderNo);
    if (paid.providerRef) update = update.set({ provider_ref: paid.providerRef });
    update = paid.allowExpired ? update.where('status', 'in', ['pending', 'expired']) : update.where('status', '=', 'pending').where('expires_at', '>', paid.at);
    const { numUpdatedRows } = await update.executeTakeFirst();
    return numUpdatedRows === 1n;
  }

  /** The order with its owner's email, as the admin's desk lists it. */
  findForAdmin(orderNo: string, trx?: Trx): Promise<(OrderRow & { user_email: string }) | undefined> {
    return (trx ?? this.db)
      .selectFrom('orders')
      .innerJoin('users', 'users.id', 'orders.user_id')
      .selectAll('orders')
      .select('users.email as user_email')
      .where('orders.order_no', '=', orderNo)
      .executeTakeFirst();
  }

  /**
   * Flips a paid order to refunded: one conditional update, so of several admins racing only one changes
   * the row (on PostgreSQL the others wait for its commit and then find it refunded). True when this one did.
   */
  async markRefunded(orderNo: string, at: string, trx: Trx): Promise<boolean> {
    const res = await trx.updateTable('orders').set({ status: 'refunded', updated_at: at }).where('order_no', '=', orderNo).where('status', '=', 'paid').executeTakeFirst();
    return res.numUpdatedRows === 1n;
  }

  /** A pending order cancelled; false when it was not pending any more. */
  async cancelPending(orderNo: string, now: string): Promise<boolean> {
    const res = await this.db
      .updateTable('orders')
      .set({ status: 'cancelled', updated_at: now })
      .where('order_no', '=', orderNo)
      .where('status', '=', 'pending')
      .executeTakeFirst();
    return res.numUpdatedRows === 1n;
  }

  /**
   * Unpaid orders past their time (or just the order `onlyId`) marked expired: one conditional update,
   * harmless when several processes run it. Answers how many it changed.
   */
  async expireDue(now: string, onlyId?: number): Promise<number> {
    let q = this.db.updateTable('orders').set({ status: 'expired', updated_at: now }).where('status', '=', 'pending').where('expires_at', '<=', now);
    if (onlyId !== undefined) q = q.where('id', '=', onlyId);
    const res = await q.executeTakeFirst();
    return Number(res.numUpdatedRows);
  }

  /** Records how the customer pays (the provider's instruction and reference). */
  setPayment(id: number, payment: { instruction: string; providerRef: string | null; now: string }): Promise<OrderRow> {
    return this.db
      .updateTable('orders')
      .set({ payment: payment.instruction, provider_ref: payment.providerRef, updated_at: payment.now })
      .where('id', '=', id)
      .returningAll()
      .executeTakeFirstOrThrow();
  }

  /**
   * The user's open orders (pending and not past their time). In a transaction on PostgreSQL it first locks
   * the user's row, so a second buy of the same user waits for the first to commit and then counts its order;
   * on SQLite Kysely runs one transaction at a time on its single connection, so the count is alone already.
   */
  async countOpenLocked(userId: number, now: string, trx: Trx): Promise<number> {
    if (trx.getExecutor().adapter instanceof PostgresAdapter) {
      await trx.selectFrom('users').select('id').where('id', '=', userId).forUpdate().execute();
    }
    const { n } = await trx
      .selectFrom('orders')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('user_id', '=', userId)
      .where('status', '=', 'pending')
      // One past its time is not open any more, even before the expiry job has marked it.
      .where('expires_at', '>', now)
      .executeTakeFirstOrThrow();
    return Number(n);
  }

  async payAmountsBetween(q: { method: PayMethod; currency: string; above: number; upTo: number; since: string }): Promise<number[]> {
    const rows = await this.db
      .selectFrom('orders')
      .select('pay_amount')
      .where('pay_method', '=', q.method)
      .where('pay_currency', '=', q.currency)
      .where('pay_amount', '>', q.above)
      .where('pay_amount', '<=', q.upTo)
      .where('created_at', '>=', q.since)
      .execute();
    return rows.map((r) => Number(r.pay_amount));
  }

  async setPayAmount(orderId: number, amount: number, currency: string, now: string): Promise<boolean> {
    const res = await this.db
      .updateTable('orders')
      .set({ pay_amount: amount, pay_currency: currency, updated_at: now })
      .where('id', '=', orderId)
      .where('status', '=', 'pending')
      .executeTakeFirst();
    return res.numUpdatedRows === 1n;
  }

  /** Orders in this method and currency with exactly this pay amount created since `since`, newest first. */
  byPayAmount(q: { method: PayMethod; currency: string; amount: number; since: string }): Promise<Pick<OrderRow, 'order_no' | 'status' | 'created_at'>[]> {
    return this.db
      .selectFrom('orders')
      .select(['order_no', 'status', 'created_at'])
      .where('pay_method', '=', q.method)
      .where('pay_currency', '=', q.currency)
      .where('pay_amount', '=', q.amount)
      .where('created_at', '>=', q.since)
      .orderBy('created_at', 'desc')
      .execute();
  }

  async pageForUser(userId: number, kinds: OrderRow['kind'][], q: MyOrderQuery): Promise<{ items: OrderRow[]; total: number }> {
    const base = this.filtered(q).where('user_id', '=', userId).where('kind', 'in', kinds);
    const { n } = await base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
    const items = await base
      .selectAll()
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .limit(q.pageSize)
      .offset((q.page - 1) * q.pageSize)
      .execute();
    return { items, total: Number(n) };
  }

  /** The admin desk; `limit: null` is the CSV export of every matching row. */
  async pageForAdmin(q: ManageOrderQuery, limit: number | null = q.pageSize): Promise<{ items: (OrderRow & { user_email: string })[]; total: number }> {
    let base = this.filtered(q);
    if (q.kind) base = base.where('orders.kind', '=', q.kind);
    if (q.userId) base = base.where('orders.user_id', '=', q.userId);
    if (q.orderNo) base = base.where('orders.order_no', '=', q.orderNo.toUpperCase());
    // The email filter as a subquery, and the count without the join: joining every matching order to its
    // user only to count them made PostgreSQL's count of a month of orders take ten times longer.
    const email = q.email?.toLowerCase();
    if (email) base = base.where('orders.user_id', 'in', this.db.selectFrom('users').select('users.id').where(containsText('users.email', email)));
    const { n } = await base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
    let rows = base
      .innerJoin('users', 'users.id', 'orders.user_id')
      .selectAll('orders')
      .select('users.email as user_email')
      .orderBy('orders.created_at', 'desc')
      .orderBy('orders.id', 'desc');
    if (limit !== null) rows = rows.limit(limit).offset((q.page - 1) * q.pageSize);
    return { items: await rows.execute(), total: Number(n) };
  }

  private filtered(q: MyOrderQuery) {
    let base = this.db.selectFrom('orders');
    if (q.status) base = base.where('orders.status', '=', q.status);
    if (q.payMethod) base = base.where('orders.pay_method', '=', q.payMethod);
    if (q.from) base = base.where('orders.created_at', '>=', `${q.from}T00:00:00.000Z`);
    if (q.to) base = base.where('orders.created_at', '<=', `${q.to}${DAY_END}`);
    return base;
  }
}

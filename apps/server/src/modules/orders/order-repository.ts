import type { ManageOrderQuery, MyOrderQuery } from '@resi/contract';
import type { Kysely } from 'kysely';
import { containsText } from '../../db/like';
import type { Database } from '../../db/schema';
import type { OrderRow } from './order-dto';

const DAY_END = 'T23:59:59.999Z';

export class OrderRepository {
  constructor(private readonly db: Kysely<Database>) {}

  find(orderNo: string): Promise<OrderRow | undefined> {
    return this.db.selectFrom('orders').selectAll().where('order_no', '=', orderNo).executeTakeFirst();
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
    let base = this.filtered(q).innerJoin('users', 'users.id', 'orders.user_id');
    if (q.kind) base = base.where('orders.kind', '=', q.kind);
    if (q.userId) base = base.where('orders.user_id', '=', q.userId);
    if (q.orderNo) base = base.where('orders.order_no', '=', q.orderNo.toUpperCase());
    if (q.email) base = base.where(containsText('users.email', q.email.toLowerCase()));
    const { n } = await base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
    let rows = base.selectAll('orders').select('users.email as user_email').orderBy('orders.created_at', 'desc').orderBy('orders.id', 'desc');
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

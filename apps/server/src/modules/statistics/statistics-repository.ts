import { type Kysely, type RawBuilder, sql } from 'kysely';
import type { Database } from '../../db/schema';

/** Inclusive ISO instants; times are stored as ISO strings of one shape, so text order is time order. */
export interface Span {
  start: string;
  end: string;
}

/** What rows are grouped by: a period (`substr` of the time) or one group for the whole span. */
export type Grouping = { period: 'day' | 'month' } | 'all';

export interface PaidFigures {
  key: string | null;
  orders: number;
  revenue: number;
  payingUsers: number;
}

export interface Keyed {
  key: string | null;
  value: number;
}

/** Orders (or refunds) of one payment method and kind: the breakdowns add these up either way. */
export interface MethodAndKind {
  payMethod: string | null;
  kind: string;
  orders: number;
  amount: number;
}

/** Orders that were paid: a refunded order was paid first and stays in the revenue of its paid time. */
const PAID_STATUSES = ['paid', 'refunded'] as const;

/**
 * When an order counts as refunded. Orders have no refund time of their own, so the refund is dated by the
 * order's last change, which is the refund for a refunded order (docs/business-rules.md#statistics).
 */
const REFUND_TIME = 'o.updated_at' as const;

/** `2026-12-07T10:00:00.000Z` → `2026-12-07` (day) or `2026-12` (month): periods are UTC. */
export function keyOf(time: string, grouping: Grouping): RawBuilder<string | null> {
  // A constant, which PostgreSQL refuses in GROUP BY: queries of 'all' leave GROUP BY out instead.
  if (grouping === 'all') return sql<string>`'all'`;
  return sql<string>`substr(${sql.ref(time)}, 1, ${sql.lit(grouping.period === 'day' ? 10 : 7)})`;
}

/** PostgreSQL answers counts and sums of integers as strings. */
const num = (v: unknown): number => Number(v ?? 0);

/**
 * The figures of the admin's Statistics (docs/business-rules.md#statistics), read from the orders, users and
 * usage rows themselves; amounts only of orders in the shop currency.
 */
export class StatisticsRepository {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly currency: string,
  ) {}

  async registrations(span: Span, grouping: Grouping): Promise<Keyed[]> {
    const key = keyOf('u.created_at', grouping);
    const rows = await this.db
      .selectFrom('users as u')
      .where('u.created_at', '>=', span.start)
      .where('u.created_at', '<=', span.end)
      .select([key.as('key'), (eb) => eb.fn.countAll().as('value')])
      .$if(grouping !== 'all', (q) => q.groupBy(key))
      .execute();
    return rows.map((r) => ({ key: r.key, value: num(r.value) }));
  }

  /** Paid orders by paid time, grouped by period or all together. */
  async paid(span: Span, grouping: Grouping): Promise<PaidFigures[]> {
    const key = keyOf('o.paid_at', grouping);
    const rows = await this.paidOrders()
      .where('o.paid_at', '>=', span.start)
      .where('o.paid_at', '<=', span.end)
      .select([
        key.as('key'),
        (eb) => eb.fn.countAll().as('orders'),
        (eb) => eb.fn.sum('o.amount').as('revenue'),
        sql<number>`count(distinct case when o.amount > 0 then o.user_id end)`.as('paying_users'),
      ])
      .$if(grouping !== 'all', (q) => q.groupBy(key))
      .execute();
    return rows.map((r) => ({ key: r.key, orders: num(r.orders), revenue: num(r.revenue), payingUsers: num(r.paying_users) }));
  }

  /** Paid orders by paid time per payment method and kind: both breakdowns from one read of the range. */
  async paidByMethodAndKind(span: Span): Promise<MethodAndKind[]> {
    const rows = await this.paidOrders()
      .where('o.paid_at', '>=', span.start)
      .where('o.paid_at', '<=', span.end)
      .select(['o.pay_method', 'o.kind', (eb) => eb.fn.countAll().as('orders'), (eb) => eb.fn.sum('o.amount').as('amount')])
      .groupBy(['o.pay_method', 'o.kind'])
      .execute();
    return rows.map((r) => ({ payMethod: r.pay_method, kind: r.kind, orders: num(r.orders), amount: num(r.amount) }));
  }

  /** Users whose first payment ever (any currency) falls in the span, by the period of that payment. */
  async newPayingUsers(span: Span, grouping: Grouping): Promise<Keyed[]> {
    const key = keyOf('u.first_paid_at', grouping);
    const rows = await this.db
      .selectFrom('users as u')
      .where('u.first_paid_at', '>=', span.start)
      .where('u.first_paid_at', '<=', span.end)
      .select([key.as('key'), (eb) => eb.fn.countAll().as('value')])
      .$if(grouping !== 'all', (q) => q.groupBy(key))
      .execute();
    return rows.map((r) => ({ key: r.key, value: num(r.value) }));
  }

  /**
   * Refunded orders by refund time, per period, payment method and kind: the period figures and both
   * breakdowns from one read of the range.
   */
  async refunds(span: Span, grouping: Exclude<Grouping, 'all'>): Promise<(MethodAndKind & { key: string | null })[]> {
    const key = keyOf(REFUND_TIME, grouping);
    const rows = await this.db
      .selectFrom('orders as o')
      .where('o.status', '=', 'refunded')
      .where('o.currency', '=', this.currency)
      .where(REFUND_TIME, '>=', span.start)
      .where(REFUND_TIME, '<=', span.end)
      .select([key.as('key'), 'o.pay_method', 'o.kind', (eb) => eb.fn.countAll().as('orders'), (eb) => eb.fn.sum('o.amount').as('amount')])
      .groupBy([key, 'o.pay_method', 'o.kind'])
      .execute();
    return rows.map((r) => ({ key: r.key, payMethod: r.pay_method, kind: r.kind, orders: num(r.orders), amount: num(r.amount) }));
  }

  /**
   * Distributors' commission by the time its ledger row was written (docs/business-rules.md#statistics): earnings
   * and, negative, reversals of refunded orders; an earning voided inside its hold counts nothing.
   */
  async commission(span: Span, grouping: Grouping): Promise<Keyed[]> {
    const key = keyOf('c.created_at', grouping);
    const rows = await this.db
      .selectFrom('commissions as c')
      .where('c.created_at', '>=', span.start)
      .where('c.created_at', '<=', span.end)
      .where('c.currency', '=', this.currency)
      .where('c.voided_at', 'is', null)
      .select([key.as('key'), (eb) => eb.fn.sum('c.amount').as('value')])
      .$if(grouping !== 'all', (q) => q.groupBy(key))
      .execute();
    return rows.map((r) => ({ key: r.key, value: num(r.value) }));
  }

  /** Metered bytes (up and down) by the UTC day they were used, from the daily roll-up, per period and exit country. */
  async traffic(span: Span, grouping: Exclude<Grouping, 'all'>): Promise<{ key: string | null; country: string; value: number }[]> {
    const key = keyOf('d.day', grouping);
    const rows = await this.usageDays(span)
      .select([key.as('key'), 'd.country', sql<number>`sum(d.bytes_up + d.bytes_down)`.as('value')])
      .groupBy([key, 'd.country'])
      .execute();
    return rows.map((r) => ({ key: r.key, country: r.country, value: num(r.value) }));
  }

  /** Distinct paying users of the whole span (a period's count does not add up across periods). */
  async payingUsers(span: Span): Promise<number> {
    const [all] = await this.paid(span, 'all');
    return all?.payingUsers ?? 0;
  }

  /**
   * The users who spent most on orders paid in the span and not refunded. Summed per user from the paid-time
   * index alone, then joined to users for the few on top (joining first looked up every order's user).
   */
  async topBySpend(span: Span, limit: number): Promise<{ userId: number; email: string; orders: number; revenue: number }[]> {
    const top = this.db
      .selectFrom('orders as o')
      .where('o.status', '=', 'paid')
      .where('o.currency', '=', this.currency)
      .where('o.amount', '>', 0)
      .where('o.paid_at', '>=', span.start)
      .where('o.paid_at', '<=', span.end)
      .select(['o.user_id', (eb) => eb.fn.countAll().as('orders'), (eb) => eb.fn.sum('o.amount').as('revenue')])
      .groupBy('o.user_id')
      .orderBy(sql`sum(o.amount)`, 'desc')
      .orderBy('o.user_id')
      .limit(limit);
    const rows = await this.db
      .selectFrom(top.as('t'))
      .innerJoin('users as u', 'u.id', 't.user_id')
      .select(['t.user_id', 'u.email', 't.orders', 't.revenue'])
      .orderBy('t.revenue', 'desc')
      .orderBy('t.user_id')
      .execute();
    return rows.map((r) => ({ userId: r.user_id, email: r.email, orders: num(r.orders), revenue: num(r.revenue) }));
  }

  /** The users whose proxy accounts moved most bytes in the span. */
  async topByTraffic(span: Span, limit: number): Promise<{ userId: number; email: string; bytes: number }[]> {
    const top = this.usageDays(span)
      .select(['d.user_id', sql<number>`sum(d.bytes_up + d.bytes_down)`.as('bytes')])
      .groupBy('d.user_id')
      .orderBy(sql`sum(d.bytes_up + d.bytes_down)`, 'desc')
      .orderBy('d.user_id')
      .limit(limit);
    const rows = await this.db
      .selectFrom(top.as('t'))
      .innerJoin('users as u', 'u.id', 't.user_id')
      .select(['t.user_id', 'u.email', 't.bytes'])
      .orderBy('t.bytes', 'desc')
      .orderBy('t.user_id')
      .execute();
    return rows.map((r) => ({ userId: r.user_id, email: r.email, bytes: num(r.bytes) }));
  }

  /** The roll-up's days that the span touches: traffic is counted by whole UTC days. */
  private usageDays(span: Span) {
    return this.db.selectFrom('usage_daily as d').where('d.day', '>=', span.start.slice(0, 10)).where('d.day', '<=', span.end.slice(0, 10));
  }

  private paidOrders() {
    return this.db.selectFrom('orders as o').where('o.status', 'in', PAID_STATUSES).where('o.currency', '=', this.currency).where('o.paid_at', 'is not', null);
  }
}

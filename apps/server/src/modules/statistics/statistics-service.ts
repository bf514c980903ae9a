import {
  ORDER_KINDS,
  STATISTICS_DEFAULT_DAYS,
  STATISTICS_MAX_DAYS,
  type StatisticsDto,
  type StatisticsQuery,
  type StatisticsRow,
  type StatisticsSummaryBlock,
  type StatisticsSummaryFigures,
  type StatisticsTotals,
} from '@resi/contract';
import { type Clock, DAY } from '../../lib/clock';
import type { MarginService } from './margin-service';
import type { Keyed, MethodAndKind, Span, StatisticsRepository } from './statistics-repository';

const TOP = 10;

/** UTC dates `YYYY-MM-DD`, both inclusive, and how they are grouped. */
export interface StatisticsRange {
  from: string;
  to: string;
  groupBy: 'day' | 'month';
}

export const dayNumber = (date: string): number => Date.parse(`${date}T00:00:00.000Z`) / DAY;
export const dateOf = (day: number): string => new Date(day * DAY).toISOString().slice(0, 10);
const spanOf = (from: string, to: string): Span => ({ start: `${from}T00:00:00.000Z`, end: `${to}T23:59:59.999Z` });

/**
 * The window asked for: `to` defaults to today (UTC), `from` to the days before it that make the default
 * window. Answers the message key of the broken rule instead when `to` is before `from` or the window is
 * longer than its grouping allows.
 */
export function statisticsRange(q: StatisticsQuery, now: Date): StatisticsRange | { invalid: string; days?: number } {
  const to = q.to ?? now.toISOString().slice(0, 10);
  const from = q.from ?? dateOf(dayNumber(to) - (STATISTICS_DEFAULT_DAYS - 1));
  const days = dayNumber(to) - dayNumber(from) + 1;
  if (days < 1) return { invalid: 'validation.statisticsRangeOrder' };
  if (days > STATISTICS_MAX_DAYS[q.groupBy]) return { invalid: 'validation.statisticsRangeSpan', days: STATISTICS_MAX_DAYS[q.groupBy] };
  return { from, to, groupBy: q.groupBy };
}

/** Every period of the range in order: each date, or each month `YYYY-MM`. */
export function periodsOf(range: StatisticsRange): string[] {
  const periods: string[] = [];
  for (let d = dayNumber(range.from); d <= dayNumber(range.to); d++) {
    const date = dateOf(d);
    const period = range.groupBy === 'day' ? date : date.slice(0, 7);
    if (periods.at(-1) !== period) periods.push(period);
  }
  return periods;
}

const byKey = (rows: Keyed[]) => new Map(rows.map((r) => [r.key, r.value]));

/** Sums of `value` per key of the rows. */
function sumBy<T, K>(rows: T[], key: (row: T) => K, value: (row: T) => number): Map<K, number> {
  const sums = new Map<K, number>();
  for (const row of rows) sums.set(key(row), (sums.get(key(row)) ?? 0) + value(row));
  return sums;
}

const growthOf = (current: number, previous: number): number | null => (previous === 0 ? null : (current - previous) / previous);

/** Statistics for admins (docs/business-rules.md#statistics). */
export class StatisticsService {
  constructor(
    private readonly repo: StatisticsRepository,
    private readonly clock: Clock,
    private readonly currency: string,
    private readonly margin: MarginService,
  ) {}

  async report(range: StatisticsRange): Promise<StatisticsDto> {
    const span = spanOf(range.from, range.to);
    const grouping = { period: range.groupBy };
    const [registrations, paid, newPaying, refunds, commission, traffic, payingUsers, paidByMethodAndKind, topBySpend, topByTraffic, margin] = await Promise.all([
      this.repo.registrations(span, grouping),
      this.repo.paid(span, grouping),
      this.repo.newPayingUsers(span, grouping),
      this.repo.refunds(span, grouping),
      this.repo.commission(span, grouping),
      this.repo.traffic(span, grouping),
      this.repo.payingUsers(span),
      this.repo.paidByMethodAndKind(span),
      this.repo.topBySpend(span, TOP),
      this.repo.topByTraffic(span, TOP),
      this.margin.report(range),
    ]);
    const paidBy = new Map(paid.map((p) => [p.key, p]));
    const [regs, fresh, earned] = [registrations, newPaying, commission].map(byKey);
    const back = sumBy(refunds, (r) => r.key, (r) => r.amount);
    const bytes = sumBy(traffic, (r) => r.key, (r) => r.value);
    const rows: StatisticsRow[] = periodsOf(range).map((period) => ({
      period,
      registrations: regs!.get(period) ?? 0,
      payingUsers: paidBy.get(period)?.payingUsers ?? 0,
      newPayingUsers: fresh!.get(period) ?? 0,
      orders: paidBy.get(period)?.orders ?? 0,
      revenue: paidBy.get(period)?.revenue ?? 0,
      refunds: back!.get(period) ?? 0,
      commission: earned!.get(period) ?? 0,
      trafficBytes: bytes!.get(period) ?? 0,
    }));
    const sum = (key: keyof StatisticsTotals) => rows.reduce((total, row) => total + row[key], 0);
    const totals: StatisticsTotals = {
      registrations: sum('registrations'),
      payingUsers,
      newPayingUsers: sum('newPayingUsers'),
      orders: sum('orders'),
      revenue: sum('revenue'),
      refunds: sum('refunds'),
      commission: sum('commission'),
      trafficBytes: sum('trafficBytes'),
    };
    const breakdowns = this.breakdowns(paidByMethodAndKind, refunds, traffic);
    return { currency: this.currency, ...range, rows, totals, ...breakdowns, topBySpend, topByTraffic, summary: await this.summary(), margin };
  }

  /** By payment method and by kind (orders, revenue, refunds) and traffic by country, from the rows read per both. */
  private breakdowns(paid: MethodAndKind[], refunded: MethodAndKind[], traffic: { country: string; value: number }[]) {
    const merge = (key: (r: MethodAndKind) => string | null, keys: (string | null)[]) => {
      const orders = sumBy(paid, key, (r) => r.orders);
      const revenue = sumBy(paid, key, (r) => r.amount);
      const refunds = sumBy(refunded, key, (r) => r.amount);
      return [...new Set([...keys, ...orders.keys(), ...refunds.keys()])]
        .map((k) => ({ key: k, orders: orders.get(k) ?? 0, revenue: revenue.get(k) ?? 0, refunds: refunds.get(k) ?? 0 }))
        .filter((row) => keys.includes(row.key) || row.orders > 0 || row.refunds > 0);
    };
    const kinds = merge((r) => r.kind, [...ORDER_KINDS]);
    return {
      byPayMethod: merge((r) => r.payMethod, [])
        .sort((a, b) => b.revenue - a.revenue || b.orders - a.orders || String(a.key).localeCompare(String(b.key)))
        .map(({ key, ...figures }) => ({ payMethod: key, ...figures })),
      // Every kind, sold or not, in the contract's order.
      byKind: ORDER_KINDS.map((kind) => {
        const { key: _key, ...figures } = kinds.find((row) => row.key === kind)!;
        return { kind, ...figures };
      }),
      trafficByCountry: [...sumBy(traffic, (t) => t.country, (t) => t.value)]
        .map(([country, bytes]) => ({ country: country || null, bytes }))
        .sort((a, b) => b.bytes - a.bytes || String(a.country).localeCompare(String(b.country))),
    };
  }

  /**
   * Today and this month (UTC) so far, each against the same stretch of the period before: yesterday up to
   * this time of day, and last month up to this day and time (or its end, when it was shorter).
   */
  async summary(): Promise<{ today: StatisticsSummaryBlock; thisMonth: StatisticsSummaryBlock }> {
    const now = this.clock.now();
    const end = now.toISOString();
    const today = `${end.slice(0, 10)}T00:00:00.000Z`;
    const yesterday = new Date(Date.parse(today) - DAY).toISOString();
    const yesterdayNow = new Date(now.getTime() - DAY).toISOString();
    const y = now.getUTCFullYear();
    const m = now.getUTCMonth();
    const monthStart = new Date(Date.UTC(y, m, 1)).toISOString();
    const previousStart = new Date(Date.UTC(y, m - 1, 1)).toISOString();
    const previousLength = new Date(Date.UTC(y, m, 0)).getUTCDate();
    const previousNow = new Date(Date.UTC(y, m - 1, Math.min(now.getUTCDate(), previousLength), now.getUTCHours(), now.getUTCMinutes(), now.getUTCSeconds(), now.getUTCMilliseconds()));
    const [a, b, c, d] = await Promise.all([
      this.figures({ start: today, end }),
      this.figures({ start: yesterday, end: yesterdayNow }),
      this.figures({ start: monthStart, end }),
      this.figures({ start: previousStart, end: previousNow.toISOString() }),
    ]);
    return { today: block(a, b), thisMonth: block(c, d) };
  }

  private async figures(span: Span): Promise<StatisticsSummaryFigures> {
    const [[registrations], [paid]] = await Promise.all([this.repo.registrations(span, 'all'), this.repo.paid(span, 'all')]);
    return {
      from: span.start,
      to: span.end,
      registrations: registrations?.value ?? 0,
      orders: paid?.orders ?? 0,
      revenue: paid?.revenue ?? 0,
      payingUsers: paid?.payingUsers ?? 0,
    };
  }
}

function block(current: StatisticsSummaryFigures, previous: StatisticsSummaryFigures): StatisticsSummaryBlock {
  return {
    current,
    previous,
    growth: {
      registrations: growthOf(current.registrations, previous.registrations),
      orders: growthOf(current.orders, previous.orders),
      revenue: growthOf(current.revenue, previous.revenue),
      payingUsers: growthOf(current.payingUsers, previous.payingUsers),
    },
  };
}

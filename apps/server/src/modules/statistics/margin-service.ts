import { GIB, type MarginRow, type MarginTotals, type OrderItemDto } from '@resi/contract';
import type { CostSpan, Days, Holding, MarginRepository, Sum } from './margin-repository';
import { type StatisticsRange, dateOf, dayNumber } from './statistics-service';

type Figures = Pick<MarginRow, 'bytes' | 'revenue' | 'cost'>;

/**
 * `n / d` (n ≥ 0) to the nearest integer, halves up, exactly. Below 2⁴⁰ in doubles: the quotient of two such
 * integers is never rounded onto a half it is not (d is 10⁶ or a power of two up to 2³⁰); above, in BigInt.
 */
function roundDiv(n: Sum, d: number): number {
  if (typeof n === 'number' && Number.isSafeInteger(n) && n < 2 ** 40) return Math.round(n / d);
  const b = BigInt(n);
  return Number((2n * b + BigInt(d)) / (2n * BigInt(d)));
}

const perGb = (value: number, bytes: number): number | null => (bytes === 0 ? null : (value * GIB) / bytes);

/**
 * The figures with their per-GB values. `exact`: revenue and cost before rounding to a minor unit, for the
 * per-GB values: on a few MB a rounded cent is a large share of the cost, and per GB it would be magnified
 * by the GBs it is not (4.47 MB at $1.50/GB costs 0.65 ¢, rounded 1 ¢, which is $2.29/GB).
 */
const withPerGb = ({ bytes, revenue, cost }: Figures, exact: { revenue: number; cost: number } = { revenue, cost }) => ({
  bytes,
  revenue,
  cost,
  margin: revenue - cost,
  revenuePerGb: perGb(exact.revenue, bytes),
  costPerGb: perGb(exact.cost, bytes),
  marginPerGb: perGb(exact.revenue - exact.cost, bytes),
});

/** Revenue and cost of a usage row in minor units, unrounded (for per-GB figures only). */
const exactOf = (u: { revenueMicro: Sum; costBytes: Sum }) => ({ revenue: Number(u.revenueMicro) / 1_000_000, cost: Number(u.costBytes) / GIB });

/** Days of the month of a UTC date `YYYY-MM-DD`. */
const daysInMonth = (date: string): number => new Date(Date.UTC(Number(date.slice(0, 4)), Number(date.slice(5, 7)), 0)).getUTCDate();

/**
 * Each provider's cost rows as spans of days, each in force from its `from_day` until the next row's: the
 * spans that touch the window.
 */
export function costSpans(costs: { providerId: number; amount: number; fromDay: string }[], days: Days): CostSpan[] {
  const spans: CostSpan[] = [];
  costs.forEach((c, i) => {
    const next = costs[i + 1];
    const until = next && next.providerId === c.providerId ? next.fromDay : null;
    if (until === null || until > days.from) spans.push({ providerId: c.providerId, from: c.fromDay, until, amount: c.amount });
  });
  return spans;
}

/** Plain code-unit order: periods, kinds and country codes are ASCII, and `localeCompare` is slow on large reports. */
const compare = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/**
 * The margin of the window (docs/business-rules.md#margin): rotating traffic per period, exit country and
 * provider, and static IPs per period and country.
 */
export class MarginService {
  constructor(private readonly repo: MarginRepository) {}

  async report(range: StatisticsRange): Promise<{ rows: MarginRow[]; totals: MarginTotals }> {
    const days = { from: range.from, to: range.to };
    const [costs, names, statics] = await Promise.all([this.repo.costs(range.to), this.repo.providerNames(), this.statics(range)]);
    const usage = await this.repo.providerUsage(days, { period: range.groupBy }, costSpans(costs, days));

    const rotating: MarginRow[] = usage.map((u) => {
      // Traffic no provider carried (direct egress) has no provider id: 0 in the roll-up's key, should it be written.
      const providerId = u.providerId > 0 ? u.providerId : null;
      return {
        period: u.key,
        kind: 'rotating',
        region: u.country || null,
        providerId,
        providerName: providerId === null ? null : (names.get(providerId) ?? null),
        ...withPerGb({ bytes: u.bytes, revenue: roundDiv(u.revenueMicro, 1_000_000), cost: roundDiv(u.costBytes, GIB) }, exactOf(u)),
      };
    });
    const rows = [...rotating, ...statics].sort(
      (a, b) => compare(a.period, b.period) || compare(a.kind, b.kind) || compare(a.region ?? '', b.region ?? '') || (a.providerId ?? 0) - (b.providerId ?? 0),
    );
    const sum = (list: MarginRow[], key: keyof Figures) => list.reduce((s, r) => s + r[key], 0);
    // Per GB of the totals: of the rotating rows, which carry the bytes (static IPs have none).
    const traffic = withPerGb(
      { bytes: sum(rotating, 'bytes'), revenue: sum(rotating, 'revenue'), cost: sum(rotating, 'cost') },
      usage.map(exactOf).reduce((a, b) => ({ revenue: a.revenue + b.revenue, cost: a.cost + b.cost }), { revenue: 0, cost: 0 }),
    );
    const revenue = sum(rows, 'revenue');
    const cost = sum(rows, 'cost');
    const totals: MarginTotals = { ...traffic, revenue, cost, margin: revenue - cost };
    return { rows, totals };
  }

  /** Static IPs per period and country: what the inventory cost by the day, and what static orders brought in. */
  private async statics(range: StatisticsRange): Promise<MarginRow[]> {
    const span = { start: `${range.from}T00:00:00.000Z`, end: `${range.to}T23:59:59.999Z` };
    const [holdings, orders, regions] = await Promise.all([
      this.repo.staticHoldings({ from: range.from, to: range.to }),
      this.repo.staticOrders(span, { period: range.groupBy }),
      this.repo.staticRegionCountries(),
    ]);
    const cells = new Map<string, { period: string; region: string | null; revenue: number; costDays: number; monthDays: number }>();
    const cell = (period: string, region: string | null, monthDays = 0) => {
      const key = `${period} ${region ?? ''}`;
      let c = cells.get(key);
      if (!c) cells.set(key, (c = { period, region, revenue: 0, costDays: 0, monthDays }));
      if (monthDays > 0) c.monthDays = monthDays;
      return c;
    };

    // Cost: cost_month ÷ days of that month, per day held. A period lies within one month, so each cell
    // sums whole cost-days and divides once.
    const first = dayNumber(range.from);
    const dates = Array.from({ length: dayNumber(range.to) - first + 1 }, (_, i) => dateOf(first + i));
    for (const [country, perDay] of costDaysByCountry(holdings, first, dates.length)) {
      perDay.forEach((costDays, i) => {
        const date = dates[i]!;
        if (costDays > 0) cell(range.groupBy === 'day' ? date : date.slice(0, 7), country, daysInMonth(date)).costDays += costDays;
      });
    }

    // Revenue: each item of an order to its region's country; what the items do not account for, to the first.
    const items = orders.map((o) => ({ ...o, items: JSON.parse(o.items) as OrderItemDto[] }));
    const renewed = await this.repo.allocationRegions(items.flatMap((o) => o.items.flatMap((i) => (i.type === 'static-renew' ? [i.staticProxyId] : []))));
    for (const o of items) {
      const parts = o.items.flatMap((i) => {
        if (i.type === 'traffic') return [];
        const regionId = i.type === 'static' ? i.regionId : renewed.get(i.staticProxyId);
        return [{ region: regionId === undefined ? null : (regions.get(regionId) ?? null), value: i.unitPrice * i.quantity }];
      });
      const firstRegion = parts[0]?.region ?? null;
      cell(o.key, firstRegion).revenue += o.amount - parts.reduce((s, p) => s + p.value, 0);
      for (const p of parts) cell(o.key, p.region).revenue += p.value;
    }

    return [...cells.values()]
      .map((c) => ({ ...c, cost: c.monthDays === 0 ? 0 : Math.round(c.costDays / c.monthDays) }))
      .filter((c) => c.revenue !== 0 || c.cost !== 0)
      .map((c) => ({ period: c.period, kind: 'static' as const, region: c.region, providerId: null, providerName: null, ...withPerGb({ bytes: 0, revenue: c.revenue, cost: c.cost }) }));
  }
}

/**
 * Per country, the cost-days (`cost_month` × IPs) held on each day of the window (`first` its day number,
 * `length` its days): each holding adds its figure from its first day to its last through a difference
 * array, so a holding costs the same whatever its length.
 */
function costDaysByCountry(holdings: Holding[], first: number, length: number): Map<string | null, number[]> {
  const deltas = new Map<string | null, number[]>();
  for (const h of holdings) {
    let delta = deltas.get(h.country);
    if (!delta) deltas.set(h.country, (delta = new Array<number>(length + 1).fill(0)));
    delta[dayNumber(h.from) - first]! += h.costMonth * h.count;
    delta[dayNumber(h.to) - first + 1]! -= h.costMonth * h.count;
  }
  const out = new Map<string | null, number[]>();
  for (const [country, delta] of deltas) {
    let running = 0;
    out.set(country, delta.slice(0, length).map((d) => (running += d)));
  }
  return out;
}

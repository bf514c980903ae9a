import { type Kysely, type RawBuilder, sql } from 'kysely';
import type { Database } from '../../db/schema';
import { type Grouping, type Span, keyOf } from './statistics-repository';

/** UTC dates `YYYY-MM-DD`, both inclusive. */
export interface Days {
  from: string;
  to: string;
}

/** A provider's cost per GB from `from` (inclusive) until `until` (exclusive: the next one's start; null: still in force). */
export interface CostSpan {
  providerId: number;
  from: string;
  until: string | null;
  amount: number;
}

/**
 * A sum that may pass 2⁵³ (bytes × cost per GB): PostgreSQL answers sums as numeric text, read exactly; a
 * number (SQLite) or short text stays a number.
 */
export type Sum = number | bigint;
const sum = (v: unknown): Sum => {
  if (typeof v === 'number') return v;
  const text = String(v ?? 0);
  return text.length < 16 ? Number(text) : BigInt(text);
};
const num = (v: unknown): number => Number(v ?? 0);

/** Static IPs held over a stretch of days (clamped to the window): `count` rows of one country and monthly cost. */
export interface Holding {
  country: string | null;
  costMonth: number;
  from: string;
  to: string;
  count: number;
}

/**
 * What the margin in Statistics reads (docs/business-rules.md#margin): the providers' daily usage with its
 * revenue, their costs, the static inventory's monthly costs and the static orders paid.
 */
export class MarginRepository {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly currency: string,
  ) {}

  /**
   * Bytes, revenue (millionths of a minor unit) and bytes × cost per GB (minor units × bytes / GB) per
   * period, exit country and provider. The cost in force on each day comes from `spans` as one CASE, so the
   * days are summed in the store rather than read one by one. `spans` holds every span of a provider that
   * touches the window.
   */
  async providerUsage(days: Days, grouping: Exclude<Grouping, 'all'>, spans: CostSpan[]) {
    // By day the column itself, so the groups follow the primary key (day, provider, country) and SQLite
    // sums them as it reads, without sorting.
    const key = grouping.period === 'day' ? sql<string>`d.day` : keyOf('d.day', grouping);
    const rows = await this.db
      .selectFrom('provider_usage_daily as d')
      .where('d.day', '>=', days.from)
      .where('d.day', '<=', days.to)
      .select([
        key.as('key'),
        'd.country',
        'd.provider_id',
        (eb) => eb.fn.sum('d.bytes').as('bytes'),
        (eb) => eb.fn.sum('d.revenue_micro').as('revenue_micro'),
        sql<string>`sum(d.bytes * ${costInForce(spans)})`.as('cost_bytes'),
      ])
      .groupBy([key, 'd.provider_id', 'd.country'])
      .execute();
    return rows.map((r) => ({
      key: r.key!,
      country: r.country,
      providerId: r.provider_id,
      bytes: num(r.bytes),
      revenueMicro: sum(r.revenue_micro),
      costBytes: sum(r.cost_bytes),
    }));
  }

  /** Every provider's name, deleted ones too: their usage keeps its name. */
  async providerNames(): Promise<Map<number, string>> {
    const rows = await this.db.selectFrom('providers').select(['id', 'name']).execute();
    return new Map(rows.map((r) => [r.id, r.name]));
  }

  /** Cost rows in the shop currency that start on or before `to`, by provider and start day. */
  async costs(to: string): Promise<{ providerId: number; amount: number; fromDay: string }[]> {
    const rows = await this.db
      .selectFrom('provider_costs')
      .select(['provider_id', 'amount', 'from_day'])
      .where('currency', '=', this.currency)
      .where('from_day', '<=', to)
      .orderBy('provider_id')
      .orderBy('from_day')
      .execute();
    return rows.map((r) => ({ providerId: r.provider_id, amount: num(r.amount), fromDay: r.from_day }));
  }

  /**
   * Inventory rows with a monthly cost that were in the inventory during the window: from their import day
   * to their retirement day (the `retired` event), each clamped to the window, counted per country and cost.
   */
  async staticHoldings(days: Days): Promise<Holding[]> {
    // Its `retired` event, written with the retirement; the row's last change should one be missing.
    const retiredAt = sql<string | null>`case when i.status = 'retired' then coalesce((select min(e.at) from static_inventory_events e where e.inventory_id = i.id and e.event = 'retired'), i.updated_at) end`;
    const held = this.db
      .selectFrom('static_inventory as i')
      .leftJoin('static_regions as r', 'r.id', 'i.region_id')
      .where('i.cost_month', '>', 0)
      .where('i.created_at', '<=', `${days.to}T23:59:59.999Z`)
      .select(['r.country', 'i.cost_month', sql<string>`substr(i.created_at, 1, 10)`.as('from_day'), sql<string | null>`substr(${retiredAt}, 1, 10)`.as('to_day')]);
    // Clamped in a subquery and grouped outside it: PostgreSQL does not match a GROUP BY expression that
    // holds parameters with the same expression in the SELECT list.
    const clamped = this.db
      .selectFrom(held.as('h'))
      .where((eb) => eb.or([eb('h.to_day', 'is', null), eb('h.to_day', '>=', days.from)]))
      .select([
        'h.country',
        'h.cost_month',
        sql<string>`case when h.from_day < ${days.from} then ${days.from} else h.from_day end`.as('from_day'),
        sql<string>`case when h.to_day is null or h.to_day > ${days.to} then ${days.to} else h.to_day end`.as('to_day'),
      ]);
    const rows = await this.db
      .selectFrom(clamped.as('c'))
      .select(['c.country', 'c.cost_month', 'c.from_day', 'c.to_day', (eb) => eb.fn.countAll().as('count')])
      .groupBy(['c.country', 'c.cost_month', 'c.from_day', 'c.to_day'])
      .execute();
    return rows.map((r) => ({ country: r.country, costMonth: num(r.cost_month), from: r.from_day, to: r.to_day, count: num(r.count) }));
  }

  /** Static purchases and renewals paid in the span (refunded ones too, as revenue counts them), with what they bought. */
  async staticOrders(span: Span, grouping: Exclude<Grouping, 'all'>) {
    const key = keyOf('o.paid_at', grouping);
    const rows = await this.db
      .selectFrom('orders as o')
      .where('o.status', 'in', ['paid', 'refunded'])
      .where('o.currency', '=', this.currency)
      .where('o.paid_at', '>=', span.start)
      .where('o.paid_at', '<=', span.end)
      .where('o.kind', 'in', ['static', 'static-renew'])
      .where('o.amount', '>', 0)
      .select([key.as('key'), 'o.amount', 'o.items'])
      .execute();
    return rows.map((r) => ({ key: r.key!, amount: num(r.amount), items: r.items }));
  }

  /** The country of each static region. */
  async staticRegionCountries(): Promise<Map<number, string>> {
    const rows = await this.db.selectFrom('static_regions').select(['id', 'country']).execute();
    return new Map(rows.map((r) => [r.id, r.country]));
  }

  /** The static region of each of these static IPs (allocations), for renewals, which name the IP only. */
  async allocationRegions(ids: number[]): Promise<Map<number, number>> {
    const out = new Map<number, number>();
    const unique = [...new Set(ids)];
    // Chunks keep the statement under the stores' limits on bound parameters.
    for (let i = 0; i < unique.length; i += 1000) {
      const rows = await this.db
        .selectFrom('static_allocations')
        .select(['id', 'region_id'])
        .where('id', 'in', unique.slice(i, i + 1000))
        .execute();
      for (const r of rows) out.set(r.id, r.region_id);
    }
    return out;
  }
}

/**
 * The cost per GB of the row `d` on its day: a CASE on the provider, then on the day against its spans from
 * the latest start back (the first that started on or before the day is the one in force), so a row costs a
 * comparison or two rather than one per span. Numbers as literals: ids and amounts read from the store.
 */
function costInForce(spans: CostSpan[]): RawBuilder<number> {
  const byProvider = new Map<number, CostSpan[]>();
  for (const s of spans) byProvider.set(s.providerId, [...(byProvider.get(s.providerId) ?? []), s]);
  const arms = [...byProvider].map(([providerId, own]) => {
    const latestFirst = [...own].sort((a, b) => (a.from < b.from ? 1 : -1)).map((s) => sql`when d.day >= ${s.from} then ${sql.lit(s.amount)}`);
    return sql`when ${sql.lit(providerId)} then (case ${sql.join(latestFirst, sql` `)} else 0 end)`;
  });
  if (arms.length === 0) return sql<number>`0`;
  return sql<number>`(case d.provider_id ${sql.join(arms, sql` `)} else 0 end)`;
}

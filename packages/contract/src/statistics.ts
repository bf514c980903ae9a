import { z } from 'zod';
import { ORDER_KINDS } from './commerce';

/** Longest window of `GET /manage/statistics` by day (about 13 months), and by month (10 years). */
export const STATISTICS_MAX_DAYS = { day: 400, month: 3660 } as const;
/** Without `from`/`to`: the last 30 days, today (UTC) included. */
export const STATISTICS_DEFAULT_DAYS = 30;

/**
 * Filters of `GET /manage/statistics` and its CSV export: UTC dates, both inclusive. The order and span
 * rules depend on today and on `groupBy`, so the server applies them (a 400 VALIDATION_FAILED when broken).
 */
export const statisticsQuery = z.object({
  from: z.iso.date({ error: 'validation.date' }).optional(),
  to: z.iso.date({ error: 'validation.date' }).optional(),
  groupBy: z.enum(['day', 'month'], { error: 'validation.groupBy' }).default('day'),
});
export type StatisticsQuery = z.infer<typeof statisticsQuery>;

const figures = {
  /** Users who signed up. */
  registrations: z.number().int(),
  /** Distinct users with a paid order of a non-zero amount. */
  payingUsers: z.number().int(),
  /** Of those, the users whose first such order ever falls here. */
  newPayingUsers: z.number().int(),
  /** Orders paid (by paid time), refunded ones included. */
  orders: z.number().int(),
  /** Amounts of those orders, minor units of the shop currency. */
  revenue: z.number().int(),
  /** Amounts of orders refunded (by refund time). */
  refunds: z.number().int(),
  /** Distributors' commission earned. */
  commission: z.number().int(),
  /** Metered bytes, up and down. */
  trafficBytes: z.number().int(),
};

/** One period: a UTC date `YYYY-MM-DD` or month `YYYY-MM`. */
export const statisticsRow = z.object({ period: z.string(), ...figures });
export type StatisticsRow = z.infer<typeof statisticsRow>;
export const statisticsTotals = z.object(figures);
export type StatisticsTotals = z.infer<typeof statisticsTotals>;

export const statisticsBreakdownRow = z.object({ orders: z.number().int(), revenue: z.number().int(), refunds: z.number().int() });

/** A span of the summary and what happened in it. */
export const statisticsSummaryFigures = z.object({
  from: z.string(),
  to: z.string(),
  registrations: z.number().int(),
  orders: z.number().int(),
  revenue: z.number().int(),
  payingUsers: z.number().int(),
});
export type StatisticsSummaryFigures = z.infer<typeof statisticsSummaryFigures>;

/** Growth of each figure against the same span of the previous period, as a ratio (0.25 = +25 %); null when that was 0. */
const growth = z.object({ registrations: z.number().nullable(), orders: z.number().nullable(), revenue: z.number().nullable(), payingUsers: z.number().nullable() });
export const statisticsSummaryBlock = z.object({ current: statisticsSummaryFigures, previous: statisticsSummaryFigures, growth });
export type StatisticsSummaryBlock = z.infer<typeof statisticsSummaryBlock>;

export const statisticsSummary = z.object({ today: statisticsSummaryBlock, thisMonth: statisticsSummaryBlock });
export type StatisticsSummary = z.infer<typeof statisticsSummary>;


const marginFigures = {
  /** Bytes carried (rotating traffic); 0 for static IPs. */
  bytes: z.number().int(),
  /** What customers paid for those bytes (package price ÷ package bytes × bytes used), or for static IP days; minor units. */
  revenue: z.number().int(),
  /** What the upstream charged: bytes × the provider's cost per GB on each day, or static IPs' monthly cost by day held. */
  cost: z.number().int(),
  margin: z.number().int(),
  /** Per GB of `bytes` (minor units); null without bytes. */
  revenuePerGb: z.number().nullable(),
  costPerGb: z.number().nullable(),
  marginPerGb: z.number().nullable(),
};

/** Margin per period, region and provider (docs/business-rules.md#margin). */
export const marginRow = z.object({
  period: z.string(),
  kind: z.enum(['rotating', 'static']),
  /** Country of the exit asked for; null: none asked for. */
  region: z.string().nullable(),
  /** Null for static IPs and for traffic no provider carried (the demo's direct exit). */
  providerId: z.number().int().nullable(),
  providerName: z.string().nullable(),
  ...marginFigures,
});
export type MarginRow = z.infer<typeof marginRow>;
export const marginTotals = z.object(marginFigures);
export type MarginTotals = z.infer<typeof marginTotals>;

export const statisticsDto = z.object({
  currency: z.string(),
  from: z.string(),
  to: z.string(),
  groupBy: z.enum(['day', 'month']),
  rows: z.array(statisticsRow),
  totals: statisticsTotals,
  byPayMethod: z.array(statisticsBreakdownRow.extend({ payMethod: z.string().nullable() })),
  byKind: z.array(statisticsBreakdownRow.extend({ kind: z.enum(ORDER_KINDS) })),
  /** `country` null: traffic without a country asked for. */
  trafficByCountry: z.array(z.object({ country: z.string().nullable(), bytes: z.number().int() })),
  topBySpend: z.array(z.object({ userId: z.number().int(), email: z.string(), orders: z.number().int(), revenue: z.number().int() })),
  topByTraffic: z.array(z.object({ userId: z.number().int(), email: z.string(), bytes: z.number().int() })),
  summary: statisticsSummary,
  margin: z.object({ rows: z.array(marginRow), totals: marginTotals }),
});
export type StatisticsDto = z.infer<typeof statisticsDto>;

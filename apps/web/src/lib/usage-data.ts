import type { Lang } from '@resi/contract';
import dayjs from 'dayjs';
import type { TrafficQuery, TrafficSummary } from '@/api/get-traffic';
import { countryName } from '@/lib/format';

/** The usage windows offered: the last 24 hours by hour, the last 7 or 30 days by day. */
export const USAGE_PERIODS = ['24h', '7d', '30d'] as const;
export type UsagePeriod = (typeof USAGE_PERIODS)[number];

export function usageQuery(period: UsagePeriod, accountId: number | undefined): TrafficQuery {
  const window: TrafficQuery = period === '24h' ? { granularity: 'hour', days: 1 } : { granularity: 'day', days: period === '7d' ? 7 : 30 };
  return accountId === undefined ? window : { ...window, accountId };
}

export interface UsagePoint {
  bucket: string;
  /** Axis label in local time: `14:00` for hours, `11-22` for days. */
  label: string;
  up: number;
  down: number;
}

/**
 * The server's buckets (every one, zeros included) as chart points. Hour buckets are UTC instants and shown
 * in local time; day buckets are UTC dates and shown as they are.
 */
export function chartPoints(series: TrafficSummary['series']): UsagePoint[] {
  return series.map(({ bucket, bytesUp, bytesDown }) => ({
    bucket,
    label: bucket.length > 10 ? dayjs(bucket).format('HH:mm') : bucket.slice(5),
    up: bytesUp,
    down: bytesDown,
  }));
}

export function seriesTotal(series: TrafficSummary['series']): number {
  return series.reduce((sum, p) => sum + p.bytesUp + p.bytesDown, 0);
}

export interface ShareRow {
  key: string;
  label: string;
  bytes: number;
  /** Share of the total, 0–100, one decimal. */
  percent: number;
}

/** Breakdown rows, largest first, each with its share of the total. */
export function shareRows(items: ReadonlyArray<{ key: string; label: string; bytes: number }>): ShareRow[] {
  const total = items.reduce((sum, i) => sum + i.bytes, 0);
  return items
    .filter((i) => i.bytes > 0)
    .map((i) => ({ ...i, percent: total > 0 ? Math.round((i.bytes / total) * 1000) / 10 : 0 }))
    .sort((a, b) => b.bytes - a.bytes);
}

/** A country code in the interface language; null (no country asked for) → `anyCountry`. */
export function countryLabel(country: string | null, lang: Lang, anyCountry: string): string {
  return country ? countryName(country, lang) : anyCountry;
}

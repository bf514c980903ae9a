import { DAY } from '../../lib/clock';

const HOUR = DAY / 24;

/**
 * The buckets of a usage window ending now: ISO hours (`2026-11-22T13:00:00.000Z`) or UTC days
 * (`2026-11-22`), oldest first. `days` days of hours is `24 × days` buckets; of days, `days` buckets.
 */
export function usageBuckets(now: Date, days: number, granularity: 'hour' | 'day'): string[] {
  if (granularity === 'hour') {
    const last = Math.floor(now.getTime() / HOUR) * HOUR;
    return Array.from({ length: days * 24 }, (_, i) => new Date(last - (days * 24 - 1 - i) * HOUR).toISOString());
  }
  const today = Math.floor(now.getTime() / DAY) * DAY;
  return Array.from({ length: days }, (_, i) => new Date(today - (days - 1 - i) * DAY).toISOString().slice(0, 10));
}

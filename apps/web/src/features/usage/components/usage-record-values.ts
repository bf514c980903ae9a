import { type Lang, USAGE_RECORD_DEFAULT_DAYS, USAGE_RECORD_MAX_DAYS } from '@resi/contract';
import dayjs, { type Dayjs } from 'dayjs';
import { INTL_LOCALE } from '@/lib/format';

export type UsageRange = [Dayjs, Dayjs];

/** The server's default window: the last 7 days, today included. */
export function defaultUsageRange(today: Dayjs = dayjs()): UsageRange {
  return [today.subtract(USAGE_RECORD_DEFAULT_DAYS - 1, 'day').startOf('day'), today.startOf('day')];
}

/**
 * The range picker offers no future day, and once a first day is picked, none that would make the window
 * longer than the server takes (both ends count).
 */
export function outsideUsageWindow(day: Dayjs, from: Dayjs | undefined, today: Dayjs = dayjs()): boolean {
  if (day.isAfter(today, 'day')) return true;
  return from !== undefined && Math.abs(day.startOf('day').diff(from.startOf('day'), 'day')) >= USAGE_RECORD_MAX_DAYS;
}

/**
 * A bucket in the interface language: a day bucket is a UTC date and shown as that date; an hour bucket is
 * a UTC instant and shown in local time.
 */
export function formatBucket(bucket: string, lang: Lang): string {
  if (bucket.length === 10) {
    return new Intl.DateTimeFormat(INTL_LOCALE[lang], { dateStyle: 'medium', timeZone: 'UTC' }).format(new Date(`${bucket}T00:00:00.000Z`));
  }
  return new Intl.DateTimeFormat(INTL_LOCALE[lang], { dateStyle: 'medium', timeStyle: 'short' }).format(new Date(bucket));
}

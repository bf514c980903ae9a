import { USAGE_RECORD_DEFAULT_DAYS, USAGE_RECORD_MAX_DAYS } from '@resi/contract';
import { DAY } from '../../lib/clock';

/** UTC dates `YYYY-MM-DD`, both inclusive. */
export interface UsageRange {
  from: string;
  to: string;
}

const dayNumber = (date: string): number => Date.parse(`${date}T00:00:00.000Z`) / DAY;
const dateOf = (day: number): string => new Date(day * DAY).toISOString().slice(0, 10);

/**
 * The window a usage query asks for: `to` defaults to today (UTC) and `from` to the days before it that
 * make the default window. Answers the message key of the broken rule instead when `to` is before `from`
 * or the window is longer than the maximum.
 */
export function usageRange(q: { from?: string; to?: string }, now: Date): UsageRange | { invalid: string } {
  const to = q.to ?? now.toISOString().slice(0, 10);
  const from = q.from ?? dateOf(dayNumber(to) - (USAGE_RECORD_DEFAULT_DAYS - 1));
  const days = dayNumber(to) - dayNumber(from) + 1;
  if (days < 1) return { invalid: 'validation.usageRangeOrder' };
  if (days > USAGE_RECORD_MAX_DAYS) return { invalid: 'validation.usageRangeSpan' };
  return { from, to };
}

import { LOGIN_ANALYSIS_DEFAULT_DAYS, LOGIN_ANALYSIS_MAX_DAYS } from '@resi/contract';
import { DAY } from '../../lib/clock';

/** UTC dates `YYYY-MM-DD`, both inclusive. */
export interface LoginWindow {
  from: string;
  to: string;
}

const dayNumber = (date: string): number => Date.parse(`${date}T00:00:00.000Z`) / DAY;
const dateOf = (day: number): string => new Date(day * DAY).toISOString().slice(0, 10);

/**
 * The days an analysis covers: `to` defaults to today (UTC), `from` to the days before it that make the
 * default window, so the summary never walks the whole table. Answers the message key of the broken rule
 * instead when `to` is before `from` or the window is longer than the maximum.
 */
export function loginWindow(q: { from?: string; to?: string }, now: Date): LoginWindow | { invalid: string } {
  const to = q.to ?? (q.from && q.from > today(now) ? q.from : today(now));
  const from = q.from ?? dateOf(dayNumber(to) - (LOGIN_ANALYSIS_DEFAULT_DAYS - 1));
  const days = dayNumber(to) - dayNumber(from) + 1;
  if (days < 1) return { invalid: 'validation.usageRangeOrder' };
  if (days > LOGIN_ANALYSIS_MAX_DAYS) return { invalid: 'validation.usageRangeSpan' };
  return { from, to };
}

/** Every date of the window, oldest first. */
export function datesOf(w: LoginWindow): string[] {
  const dates: string[] = [];
  for (let d = dayNumber(w.from); d <= dayNumber(w.to); d++) dates.push(dateOf(d));
  return dates;
}

const today = (now: Date): string => now.toISOString().slice(0, 10);

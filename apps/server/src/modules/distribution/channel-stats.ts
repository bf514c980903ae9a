import { CHANNEL_KEYS, CHANNEL_STATS_DEFAULT_DAYS, CHANNEL_STATS_MAX_DAYS, type ChannelKey, type ChannelStats, type ChannelStatsQuery, type ChannelStatsRow } from '@resi/contract';
import { DAY } from '../../lib/clock';
import type { ChannelCount, DistributionRepository, Scope } from './distribution-repository';

const dayNumber = (date: string): number => Date.parse(`${date}T00:00:00.000Z`) / DAY;
const dateOf = (day: number): string => new Date(day * DAY).toISOString().slice(0, 10);

/** The window asked for (UTC dates, inclusive), or the message key of the rule it breaks. */
export function channelRange(q: ChannelStatsQuery, now: Date): { from: string; to: string } | { invalid: string; days?: number } {
  const to = q.to ?? now.toISOString().slice(0, 10);
  const from = q.from ?? dateOf(dayNumber(to) - (CHANNEL_STATS_DEFAULT_DAYS - 1));
  const days = dayNumber(to) - dayNumber(from) + 1;
  if (days < 1) return { invalid: 'validation.statisticsRangeOrder' };
  if (days > CHANNEL_STATS_MAX_DAYS) return { invalid: 'validation.statisticsRangeSpan', days: CHANNEL_STATS_MAX_DAYS };
  return { from, to };
}

/**
 * The funnel visit → registration → first payment per day and channel (docs/business-rules.md#channel-statistics):
 * each figure is read from its own rows and the rows are merged by day × channel.
 */
export async function channelStats(repo: DistributionRepository, scope: Scope, q: ChannelStatsQuery, range: { from: string; to: string }, currency: string): Promise<ChannelStats> {
  const f = { start: `${range.from}T00:00:00.000Z`, end: `${range.to}T23:59:59.999Z`, channelKey: q.channelKey, channelValue: q.channelValue || undefined };
  const [visits, registrations, orders, firsts] = await Promise.all([
    repo.channelVisits(scope, f),
    repo.channelRegistrations(scope, f),
    repo.channelOrders(scope, f),
    repo.channelFirstPayments(scope, f),
  ]);
  const rows = new Map<string, ChannelStatsRow>();
  const rowOf = (c: ChannelCount): ChannelStatsRow | null => {
    if (!(CHANNEL_KEYS as readonly string[]).includes(c.channel_key)) return null;
    const key = `${c.day}\u0000${c.channel_key}\u0000${c.channel_value}`;
    let row = rows.get(key);
    if (!row) {
      row = { day: c.day, channelKey: c.channel_key as ChannelKey, channelValue: c.channel_value, visits: 0, registrations: 0, payingUsers: 0, orders: 0, revenue: 0 };
      rows.set(key, row);
    }
    return row;
  };
  const add = (list: ChannelCount[], apply: (row: ChannelStatsRow, c: ChannelCount) => void) => {
    for (const c of list) {
      const row = rowOf(c);
      if (row) apply(row, c);
    }
  };
  add(visits, (r, c) => (r.visits += c.n));
  add(registrations, (r, c) => (r.registrations += c.n));
  add(firsts, (r, c) => (r.payingUsers += c.n));
  add(orders, (r, c) => {
    r.orders += c.n;
    r.revenue += c.amount ?? 0;
  });
  const sorted = [...rows.values()].sort((a, b) => a.day.localeCompare(b.day) || a.channelKey.localeCompare(b.channelKey) || a.channelValue.localeCompare(b.channelValue));
  const totals = { visits: 0, registrations: 0, payingUsers: 0, orders: 0, revenue: 0 };
  for (const r of sorted) for (const k of Object.keys(totals) as (keyof typeof totals)[]) totals[k] += r[k];
  return { from: range.from, to: range.to, currency, rows: sorted, totals };
}

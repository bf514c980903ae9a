import { describe, expect, it } from 'vitest';
import { dailyTotals, funnelRates } from './channel-funnel';

const row = (day: string, channelValue: string, visits: number, revenue = 0) => ({ day, channelKey: 'qd' as const, channelValue, visits, registrations: 1, payingUsers: 0, orders: revenue ? 1 : 0, revenue });

describe('channel funnel', () => {
  it('sums the channels of a day and gives every day of the window a bar, empty days as zeros', () => {
    const days = dailyTotals({ from: '2026-02-27', to: '2026-03-02', rows: [row('2026-02-27', 'a', 3), row('2026-02-27', 'b', 2, 2500), row('2026-03-01', 'a', 1)] });
    expect(days.map((d) => d.period)).toEqual(['2026-02-27', '2026-02-28', '2026-03-01', '2026-03-02']);
    expect(days[0]).toEqual({ period: '2026-02-27', visits: 5, registrations: 2, payingUsers: 0, orders: 1, revenue: 2500 });
    expect(days[1]).toMatchObject({ visits: 0, registrations: 0 });
  });

  it('rates each step against the one before, and gives no rate after a step nobody reached', () => {
    expect(funnelRates({ visits: 200, registrations: 10, payingUsers: 4, orders: 5, revenue: 1 })).toEqual({ visitToRegistration: 0.05, registrationToPaying: 0.4, visitToPaying: 0.02 });
    expect(funnelRates({ visits: 0, registrations: 0, payingUsers: 0, orders: 0, revenue: 0 })).toEqual({ visitToRegistration: null, registrationToPaying: null, visitToPaying: null });
  });
});

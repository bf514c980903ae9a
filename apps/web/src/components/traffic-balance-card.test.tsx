import { render, screen } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { describe, expect, it } from 'vitest';
import type { TrafficSummary } from '@/api/get-traffic';
import { formatDate, formatDateTime } from '@/lib/format';
import { nextExpiringGrant, TrafficBalanceCard } from './traffic-balance-card';

const grant = (id: number, expiresAt: string, bytes = 100, usedBytes = 0) => ({ id, orderNo: null, bytes, usedBytes, expiresAt, createdAt: '2026-01-01T00:00:00Z' });

describe('nextExpiringGrant', () => {
  it('is the grant with traffic left that expires first', () => {
    const grants = [grant(1, '2026-03-01T00:00:00Z'), grant(2, '2026-02-01T00:00:00Z', 100, 100), grant(3, '2026-02-15T00:00:00Z')];
    expect(nextExpiringGrant(grants)?.id).toBe(3);
  });

  it('is null when nothing is left', () => {
    expect(nextExpiringGrant([grant(1, '2026-03-01T00:00:00Z', 5, 5)])).toBeNull();
    expect(nextExpiringGrant([])).toBeNull();
  });
});

const query = (traffic: TrafficSummary | undefined) => ({ data: traffic, isPending: traffic === undefined, isError: false, error: null, isFetching: false, refetch: () => undefined });
const summary = (runsOutAt: string | null) => ({ balanceBytes: 150, usedBytes: 50, runsOutAt, grants: [], series: [], byCountry: [], byAccount: [] }) as TrafficSummary;
const showCard = (traffic: TrafficSummary | undefined) =>
  render(
    <MemoryRouter>
      <TrafficBalanceCard traffic={query(traffic)} />
    </MemoryRouter>,
  );

describe('TrafficBalanceCard', () => {
  it("says when the balance runs out at the last 7 days' pace", () => {
    showCard(summary('2026-03-04T05:00:00.000Z'));
    expect(screen.getByTestId('balance-runout').textContent?.trim()).toBe(`Runs out around ${formatDate('2026-03-04T05:00:00.000Z')} at the last 7 days' pace`);
  });

  it('says nothing when the server cannot tell, and keeps the line so the card is as tall as while loading', () => {
    const { container, unmount } = showCard(summary(null));
    expect(screen.queryByTestId('balance-runout')).toBeNull();
    expect(container.querySelectorAll('.balance-card__runout')).toHaveLength(1);
    unmount();
    const loading = showCard(undefined);
    expect(loading.container.querySelectorAll('.balance-card__runout')).toHaveLength(1);
    expect(screen.queryByTestId('balance-runout')).toBeNull();
  });

  it('lists the grants behind the balance: order (or bonus), size, what is left, expiry', () => {
    const traffic = { balanceBytes: 150, usedBytes: 50, grants: [grant(1, '2026-03-01T00:00:00Z', 100, 40), { ...grant(2, '2026-02-01T00:00:00Z', 100, 120), orderNo: 'D1' }], series: [], byCountry: [], byAccount: [] };
    render(
      <MemoryRouter>
        <TrafficBalanceCard
          traffic={{ data: traffic as unknown as TrafficSummary, isPending: false, isError: false, error: null, isFetching: false, refetch: () => undefined }}
        />
      </MemoryRouter>,
    );
    const rows = screen.getAllByTestId('grant').map((row) => [...row.querySelectorAll('td')].map((td) => td.textContent));
    expect(rows).toEqual([
      ['Bonus', '100 B', '60 B', formatDateTime('2026-03-01T00:00:00Z')],
      ['D1', '100 B', '0 B', formatDateTime('2026-02-01T00:00:00Z')],
    ]);
  });
});

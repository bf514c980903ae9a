import type { StatisticsDto } from '@resi/contract';
import { render, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { BYTES_PER_GB } from '@/lib/format';
import { MarginTable } from './margin-table';

const margin: StatisticsDto['margin'] = {
  rows: [
    { period: '2026-01-01', kind: 'rotating', region: 'US', providerId: 1, providerName: 'Supplier One', bytes: 2 * BYTES_PER_GB, revenue: 500, cost: 300, margin: 200, revenuePerGb: 250, costPerGb: 150, marginPerGb: 100 },
    { period: '2026-01-02', kind: 'rotating', region: null, providerId: null, providerName: null, bytes: BYTES_PER_GB, revenue: 100, cost: 0, margin: 100, revenuePerGb: 100, costPerGb: 0, marginPerGb: 100 },
    { period: '2026-01-02', kind: 'static', region: 'DE', providerId: null, providerName: null, bytes: 0, revenue: 50, cost: 80, margin: -30, revenuePerGb: null, costPerGb: null, marginPerGb: null },
  ],
  totals: { bytes: 3 * BYTES_PER_GB, revenue: 650, cost: 380, margin: 270, revenuePerGb: 216.67, costPerGb: 126.67, marginPerGb: 90 },
};

const cells = (tr: Element) => [...tr.querySelectorAll('td')].map((td) => td.textContent);

describe('Margin table', () => {
  it('lists the rows newest first with their names, figures per GB, a loss in red, and the totals', () => {
    render(<MarginTable margin={margin} currency="USD" />);
    const table = screen.getByTestId('statistics-margin');
    const rows = [...table.querySelectorAll('tbody tr.ant-table-row')].map(cells);
    expect(rows).toEqual([
      ['2026-01-02', 'Rotating', 'Any', '—', '1 GB', '$1.00$1.00 / GB', '$0.00$0.00 / GB', '$1.00$1.00 / GB'],
      ['2026-01-02', 'Static', 'Germany (DE)', '—', '0 B', '$0.50', '$0.80', '-$0.30'],
      ['2026-01-01', 'Rotating', 'United States (US)', 'Supplier One', '2 GB', '$5.00$2.50 / GB', '$3.00$1.50 / GB', '$2.00$1.00 / GB'],
    ]);
    expect(within(table).getByText('-$0.30').className).toContain('danger');
    expect(cells(within(table).getByTestId('statistics-margin-totals'))).toEqual(['Total', '3 GB', '$6.50$2.17 / GB', '$3.80$1.27 / GB', '$2.70$0.90 / GB']);
  });

  it('says there is nothing in the period without rows, and shows no totals', () => {
    render(<MarginTable margin={{ rows: [], totals: { bytes: 0, revenue: 0, cost: 0, margin: 0, revenuePerGb: null, costPerGb: null, marginPerGb: null } }} currency="USD" />);
    expect(screen.getByTestId('statistics-margin').textContent).toContain('Nothing in this period');
    expect(screen.queryByTestId('statistics-margin-totals')).toBeNull();
  });
});

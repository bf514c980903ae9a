import type { ChannelStats } from '@resi/contract';
import { QueryClientProvider } from '@tanstack/react-query';
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { App } from 'antd';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { browser } from '@/lib/api-client';
import { createQueryClient } from '@/lib/query-client';
import ChannelStatisticsPage from './channel-statistics-page';

const stats = (visits: number): ChannelStats => ({
  from: '2026-01-01',
  to: '2026-01-03',
  currency: 'USD',
  rows: visits ? [{ day: '2026-01-02', channelKey: 'qd', channelValue: 'spring', visits, registrations: 4, payingUsers: 1, orders: 2, revenue: 5000 }] : [],
  totals: { visits, registrations: visits ? 4 : 0, payingUsers: visits ? 1 : 0, orders: visits ? 2 : 0, revenue: visits ? 5000 : 0 },
});

const asked: URL[] = [];
let answer: ChannelStats;

beforeEach(() => {
  asked.length = 0;
  answer = stats(40);
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: string) => {
      const url = new URL(String(input), 'http://console.test');
      asked.push(url);
      if (url.pathname === '/api/distribution/channel') return Response.json({ data: answer });
      if (url.pathname === '/api/export-ticket') return Response.json({ data: { ticket: 'tkt-9' } });
      return Response.json({ code: 'NOT_FOUND', message: url.pathname }, { status: 404 });
    }),
  );
});
afterEach(() => vi.unstubAllGlobals());

const waitLong = { timeout: 10_000 };
const channelAsks = () => asked.filter((u) => u.pathname === '/api/distribution/channel');

function renderPage() {
  render(
    <QueryClientProvider client={createQueryClient()}>
      <App>
        <ChannelStatisticsPage />
      </App>
    </QueryClientProvider>,
  );
}

describe('Channel Statistics', { timeout: 30_000 }, () => {
  it('asks for the last 30 UTC days and shows totals, the funnel rates and a row per day and channel', async () => {
    renderPage();
    expect((await screen.findByTestId('channel-total-visits', {}, waitLong)).textContent).toBe('40');
    const first = channelAsks()[0]!;
    const span = (Date.parse(first.searchParams.get('to')!) - Date.parse(first.searchParams.get('from')!)) / 86_400_000 + 1;
    expect(span).toBe(30);
    expect(screen.getByTestId('channel-total-registrations').textContent).toBe('4');
    expect(screen.getByTestId('channel-total-paying').textContent).toBe('1');
    expect(screen.getByTestId('channel-total-revenue').textContent).toBe('$50.00');
    expect(screen.getByTestId('channel-rate-visitToRegistration').textContent).toBe('10%');
    expect(screen.getByTestId('channel-rate-registrationToPaying').textContent).toBe('25%');
    expect(screen.getByTestId('channel-row-qd-spring-2026-01-02').textContent).toContain('qd=spring');
    // One bar slot per day of the window the server answered for.
    expect(within(screen.getByTestId('channel-chart')).getAllByText((_, el) => el?.tagName === 'title')).toHaveLength(3);
  });

  it('shows no rate where nobody reached the step before, and the table says the period is empty', async () => {
    answer = stats(0);
    renderPage();
    expect((await screen.findByTestId('channel-rate-visitToRegistration', {}, waitLong)).textContent).toBe('—');
    expect(screen.getByTestId('channel-table').textContent).toContain('No visits, registrations or orders');
    expect(screen.getByTestId('channel-export').hasAttribute('disabled')).toBe(true);
  });

  it('filters by channel key and value, and exports the same filters through a ticket', async () => {
    const tab = { location: { href: '' }, close: vi.fn() };
    vi.spyOn(browser, 'openTab').mockReturnValue(tab as unknown as Window);
    renderPage();
    await screen.findByTestId('channel-total-visits', {}, waitLong);
    fireEvent.mouseDown(within(screen.getByTestId('channel-key')).getByRole('combobox'));
    fireEvent.click(await screen.findByTitle('qd', {}, waitLong));
    const value = within(screen.getByTestId('channel-value')).getByRole('searchbox');
    fireEvent.change(value, { target: { value: ' spring ' } });
    fireEvent.keyDown(value, { key: 'Enter', code: 'Enter', keyCode: 13 });
    await waitFor(() => expect(channelAsks().at(-1)?.searchParams.get('channelValue')).toBe('spring'), waitLong);
    expect(channelAsks().at(-1)?.searchParams.get('channelKey')).toBe('qd');
    fireEvent.click(screen.getByTestId('channel-export'));
    await waitFor(() => expect(tab.location.href).toMatch(/^\/api\/distribution\/channel\?/), waitLong);
    const exported = new URL(tab.location.href, 'http://console.test').searchParams;
    expect(exported.get('channelKey')).toBe('qd');
    expect(exported.get('channelValue')).toBe('spring');
    expect(exported.get('token')).toBe('tkt-9');
    expect(exported.get('from')).toBe(channelAsks().at(-1)?.searchParams.get('from'));
  });
});

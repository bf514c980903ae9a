import type { StaticProxyDto } from '@resi/contract';
import { QueryClientProvider } from '@tanstack/react-query';
import { render, screen, waitFor } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { BYTES_PER_GB } from '@/lib/format';
import { createQueryClient } from '@/lib/query-client';
import { orderFixture } from '@/test/order-fixture';
import { RECENT_ORDERS } from '../components/recent-orders-card';
import CenterPage from './center-page';

const order = orderFixture;

const traffic = {
  balanceBytes: 7 * BYTES_PER_GB,
  usedBytes: 3 * BYTES_PER_GB,
  grants: [{ id: 1, orderNo: 'D20260101000000000001', bytes: 10 * BYTES_PER_GB, usedBytes: 3 * BYTES_PER_GB, expiresAt: '2026-02-01T00:00:00Z', createdAt: '2026-01-01T00:00:00Z' }],
  series: [
    { bucket: '2026-01-06', bytesUp: BYTES_PER_GB / 2, bytesDown: BYTES_PER_GB },
    { bucket: '2026-01-07', bytesUp: 0, bytesDown: BYTES_PER_GB / 2 },
  ],
  byCountry: [],
  byAccount: [],
};

const expiringIp: StaticProxyDto = {
  id: 4,
  ip: '203.0.113.4',
  regionId: 1,
  regionName: { en: 'Frankfurt', 'zh-cn': '法兰克福', zh: '法蘭克福' },
  country: 'DE',
  city: null,
  businessId: 1,
  businessName: { en: 'E-commerce', 'zh-cn': '电商', zh: '電商' },
  isp: null,
  username: 'suser00004',
  password: 'StaticPass000004',
  host: 'gw.acme.example',
  httpPort: 9001,
  socksPort: 9002,
  startsAt: '2026-01-01T00:00:00Z',
  expiresAt: new Date(Date.now() + 2.5 * 86_400_000).toISOString(),
  status: 'active',
  remark: null,
  replacementsLeft: 1,
  bytesToday: 0,
  bytes30Days: 0,
};
let expiring: StaticProxyDto[] = [];

const fetchMock = vi.fn<typeof fetch>();
beforeEach(() => {
  expiring = [];
  fetchMock.mockReset();
  fetchMock.mockImplementation(async (input) => {
    const url = new URL(String(input), 'http://console.test');
    if (url.pathname === '/api/traffic') return Response.json({ data: traffic });
    if (url.pathname === '/api/record/dynamic-order') return Response.json({ data: { items: [order(1), order(2, { status: 'pending', paidAt: null })], total: 9, page: 1, pageSize: RECENT_ORDERS } });
    if (url.pathname === '/api/proxy/static') return Response.json({ data: { items: expiring, total: expiring.length, page: 1, pageSize: 10 } });
    return Response.json({ code: 'NOT_FOUND', message: 'not found' }, { status: 404 });
  });
  vi.stubGlobal('fetch', fetchMock);
});
afterEach(() => vi.unstubAllGlobals());

const requested = (path: string) => fetchMock.mock.calls.map(([input]) => new URL(String(input), 'http://console.test')).filter((u) => u.pathname === path);

function renderHome() {
  render(
    <QueryClientProvider client={createQueryClient()}>
      <MemoryRouter>
        <CenterPage />
      </MemoryRouter>
    </QueryClientProvider>,
  );
}

describe('Account Home', () => {
  it('lists static IPs expiring within 7 days with a Renew link to Static Residential', async () => {
    expiring = [expiringIp];
    renderHome();
    const card = await screen.findByTestId('home-expiring');
    await waitFor(() => expect(screen.getAllByTestId('home-expiring-ip')).toHaveLength(1));
    expect(card.textContent).toContain('203.0.113.4');
    // The operator's name of the region, not its city code.
    expect(card.textContent).toContain('Frankfurt');
    expect(card.textContent).toContain('in 2 days');
    expect(screen.getByTestId('home-expiring-renew').closest('a')?.getAttribute('href')).toBe('/center/staticResidential');
    const [asked] = requested('/api/proxy/static');
    expect(asked?.searchParams.get('expiringDays')).toBe('7');
  }, 20_000);

  it('shows no reminder when nothing expires soon', async () => {
    renderHome();
    await waitFor(() => expect(requested('/api/proxy/static')).toHaveLength(1));
    await waitFor(() => expect(screen.getAllByTestId('home-order')).toHaveLength(2));
    expect(screen.queryByTestId('home-expiring')).toBeNull();
  }, 20_000);

  it('shows the traffic balance, the last 7 days of usage and the latest orders', async () => {
    render(
      <QueryClientProvider client={createQueryClient()}>
        <MemoryRouter>
          <CenterPage />
        </MemoryRouter>
      </QueryClientProvider>,
    );
    await waitFor(() => expect(screen.getByTestId('balance-value').textContent).toContain('7 GB'));
    expect(screen.getByTestId('home-usage-total').textContent).toContain('2 GB');
    const [usage] = requested('/api/traffic');
    expect(usage?.searchParams.get('granularity')).toBe('day');
    expect(usage?.searchParams.get('days')).toBe('7');

    await waitFor(() => expect(screen.getAllByTestId('home-order')).toHaveLength(2));
    const [first, second] = screen.getAllByTestId('home-order');
    expect(first!.textContent).toContain('Basic 10 GB');
    expect(first!.textContent).toContain('$25.00');
    expect(first!.textContent).toContain('Paid');
    expect(second!.textContent).toContain('Awaiting payment');
    expect(requested('/api/record/dynamic-order')[0]?.searchParams.get('pageSize')).toBe(String(RECENT_ORDERS));
    expect(screen.getByText('All orders').closest('a')?.getAttribute('href')).toBe('/center/rechargeDetails');
    // The page and its chart render in seconds when the whole web suite runs on 2 cores: a budget, not a wait.
  }, 20_000);
});

import type { OrderDto } from '@resi/contract';
import { QueryClientProvider } from '@tanstack/react-query';
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createQueryClient } from '@/lib/query-client';
import { orderFixture } from '@/test/order-fixture';
import { TRAFFIC_ORDERS_PAGE_SIZE, TrafficOrdersCard } from './traffic-orders-card';

const order = orderFixture;

const fetchMock = vi.fn<typeof fetch>();
beforeEach(() => {
  fetchMock.mockReset();
  vi.stubGlobal('fetch', fetchMock);
});
afterEach(() => vi.unstubAllGlobals());

/** Answers each GET /api/record/dynamic-order with the page asked for, out of `total` orders. */
function serveOrders(total: number, first: OrderDto[]) {
  fetchMock.mockImplementation(async (input) => {
    const url = new URL(String(input), 'http://console.test');
    const page = Number(url.searchParams.get('page'));
    const pageSize = Number(url.searchParams.get('pageSize'));
    const items = page === 1 ? first : [order(9, { status: 'expired', payMethod: 'manual', paidAt: null })];
    return Response.json({ data: { items, total, page, pageSize } });
  });
}

function renderCard() {
  render(
    <QueryClientProvider client={createQueryClient()}>
      <MemoryRouter>
        <TrafficOrdersCard />
      </MemoryRouter>
    </QueryClientProvider>,
  );
}

const requested = () => fetchMock.mock.calls.map(([input]) => new URL(String(input), 'http://console.test'));

describe('TrafficOrdersCard', () => {
  it('lists the traffic orders with status, method, amount, package and times', async () => {
    serveOrders(2, [order(1), order(2, { status: 'pending', payMethod: 'usdt-trc20', amount: 4999, paidAt: null })]);
    renderCard();
    const card = screen.getByTestId('traffic-orders');
    await waitFor(() => expect(card.querySelectorAll('tbody tr.ant-table-row')).toHaveLength(2));

    const [url] = requested();
    expect(url?.pathname).toBe('/api/record/dynamic-order');
    expect(url?.searchParams.get('page')).toBe('1');
    expect(url?.searchParams.get('pageSize')).toBe(String(TRAFFIC_ORDERS_PAGE_SIZE));

    const headers = [...card.querySelectorAll('thead th')].map((th) => th.textContent);
    expect(headers).toEqual(['Status', 'Payment method', 'Amount', 'Package', 'Created / paid', 'Order number']);

    const [paid, pending] = [...card.querySelectorAll('tbody tr.ant-table-row')] as HTMLElement[];
    expect(within(paid!).getByText('Paid')).toBeTruthy();
    expect(paid!.textContent).toContain('Sandbox');
    expect(paid!.textContent).toContain('$25.00');
    expect(paid!.textContent).toContain('Basic 10 GB');
    expect(paid!.textContent).toMatch(/Paid \d{4}-\d{2}-\d{2}/);
    expect(paid!.textContent).toContain('D20260101000000000001');
    expect(within(pending!).getByText('Awaiting payment')).toBeTruthy();
    expect(pending!.textContent).toContain('USDT (TRC20)');
    expect(pending!.textContent).toContain('$49.99');
    expect(screen.getByText('2 in total')).toBeTruthy();
  });

  it('asks the server for the next page when the customer pages on', async () => {
    serveOrders(TRAFFIC_ORDERS_PAGE_SIZE + 1, Array.from({ length: TRAFFIC_ORDERS_PAGE_SIZE }, (_v, i) => order(i)));
    renderCard();
    const card = screen.getByTestId('traffic-orders');
    await waitFor(() => expect(card.querySelectorAll('tbody tr.ant-table-row')).toHaveLength(TRAFFIC_ORDERS_PAGE_SIZE));

    fireEvent.click(card.querySelector('.ant-pagination-item-2')!);
    await waitFor(() => expect(card.querySelectorAll('tbody tr.ant-table-row')).toHaveLength(1));
    expect(requested().at(-1)?.searchParams.get('page')).toBe('2');
    expect(card.querySelector('tbody')!.textContent).toContain('Expired');
    expect(card.querySelector('tbody')!.textContent).toContain('Manual payment');
  });

  it('says so when there is no traffic order yet, and links to Recharge Details', async () => {
    serveOrders(0, []);
    renderCard();
    expect(await screen.findByText('No traffic order yet. Buy a package to get traffic.')).toBeTruthy();
    expect(screen.getByText('All recharge details').closest('a')?.getAttribute('href')).toBe('/center/rechargeDetails');
  });
});

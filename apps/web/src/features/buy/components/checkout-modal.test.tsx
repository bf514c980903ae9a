import type { OrderDto, PackageDto, PayMethod } from '@resi/contract';
import { QueryClientProvider } from '@tanstack/react-query';
import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { QueryLike } from '@/components/query-state';
import { browser } from '@/lib/api-client';
import { BYTES_PER_GB } from '@/lib/format';
import { createQueryClient } from '@/lib/query-client';
import { CheckoutModal, type CheckoutEvents } from './checkout-modal';

const pkg: PackageDto = {
  id: 2,
  name: { en: 'Basic 10 GB', 'zh-cn': '基础 10 GB', zh: '基礎 10 GB' },
  bytes: 10 * BYTES_PER_GB,
  price: 2500,
  currency: 'USD',
  validityDays: 30,
  badge: 'popular',
  sort: 1,
  enabled: true,
};

const order: OrderDto = {
  orderNo: 'D20260101000000000001',
  kind: 'dynamic',
  status: 'pending',
  items: [{ type: 'traffic', name: pkg.name, bytes: pkg.bytes, validityDays: 30, quantity: 1, unitPrice: 2500 }],
  amount: 2500,
  currency: 'USD',
  payMethod: 'sandbox',
  payment: { type: 'redirect', url: '/api/pay/sandbox/D20260101000000000001?lang=en' },
  note: null,
  expiresAt: '2099-01-01T00:30:00Z',
  paidAt: null,
  createdAt: '2026-01-01T00:00:00Z',
};

const fetchMock = vi.fn<typeof fetch>();
beforeEach(() => {
  fetchMock.mockReset();
  vi.stubGlobal('fetch', fetchMock);
});
afterEach(() => vi.unstubAllGlobals());

/** The pay-methods query as it stands once GET /api/pay/methods has answered with `methods`. */
const loaded = (methods: PayMethod[]): QueryLike<PayMethod[]> => ({ data: methods, isPending: false, isError: false, error: null, isFetching: false, refetch: () => undefined });

function open(methods: PayMethod[], events: Partial<CheckoutEvents> = {}) {
  const all: CheckoutEvents = { onMethod: vi.fn(), onPaid: vi.fn(), onClose: vi.fn(), ...events };
  render(
    <QueryClientProvider client={createQueryClient()}>
      <MemoryRouter>
        <CheckoutModal item={{ kind: 'dynamic', pkg }} methods={loaded(methods)} events={all} />
      </MemoryRouter>
    </QueryClientProvider>,
  );
  return all;
}

describe('CheckoutModal', () => {
  it('says so when no payment method is enabled, and cannot pay', () => {
    open([]);
    expect(screen.getByTestId('no-pay-methods').textContent).toContain('No payment method is available right now');
    expect((screen.getByTestId('checkout-pay') as HTMLButtonElement).disabled).toBe(true);
  });

  it('offers the enabled methods, the first chosen, the sandbox marked as a demo', () => {
    open(['manual', 'sandbox']);
    expect(screen.getByTestId('pay-method-sandbox').textContent).toContain('Demo');
    expect(screen.getByTestId('pay-method-manual').textContent).not.toContain('Demo');
    expect(screen.getByTestId('checkout-pay').textContent).toContain('Pay $25.00');
    const checked = document.querySelector('.pay-method-option--active');
    expect(checked?.textContent).toContain('Manual payment');
  });

  it('keeps the method shown selected when the list reloads with another one first', () => {
    const events: CheckoutEvents = { onMethod: vi.fn(), onPaid: vi.fn(), onClose: vi.fn() };
    const client = createQueryClient();
    const modal = (methods: PayMethod[]) => (
      <QueryClientProvider client={client}>
        <MemoryRouter>
          <CheckoutModal item={{ kind: 'dynamic', pkg }} methods={loaded(methods)} events={events} />
        </MemoryRouter>
      </QueryClientProvider>
    );
    const { rerender } = render(modal(['sandbox']));
    // Clicking the preselected choice changes nothing, as in a browser.
    fireEvent.click(screen.getByTestId('pay-method-sandbox'));
    rerender(modal(['manual', 'sandbox']));
    expect(document.querySelector('.pay-method-option--active')?.textContent).toContain('Sandbox');
  });

  it('orders the package with the chosen method, opens the provider page in a new tab and shows the payment step', async () => {
    const openTab = vi.spyOn(browser, 'openTab').mockReturnValue(null);
    fetchMock.mockImplementation(async (url) => {
      if (url === '/api/buy/dynamic') return Response.json({ data: { order, payment: order.payment } });
      return Response.json({ data: order });
    });
    const events = open(['manual', 'sandbox']);
    fireEvent.click(screen.getByTestId('pay-method-sandbox'));
    expect(events.onMethod).toHaveBeenCalledWith('sandbox');
    fireEvent.click(screen.getByTestId('checkout-pay'));

    expect(await screen.findByTestId('payment-step')).toBeTruthy();
    const buy = fetchMock.mock.calls.find(([url]) => url === '/api/buy/dynamic');
    expect(JSON.parse(String(buy?.[1]?.body))).toEqual({ goodsId: 2, payMethod: 'sandbox' });
    expect(openTab).toHaveBeenCalledWith('/api/pay/sandbox/D20260101000000000001?lang=en', 'noopener');
    expect(screen.getByTestId('payment-order-no').textContent).toContain('D20260101000000000001');
  });

  it('reports the payment once the polled order is paid', async () => {
    vi.spyOn(browser, 'openTab').mockReturnValue(null);
    fetchMock.mockImplementation(async (url) => {
      if (url === '/api/buy/dynamic') return Response.json({ data: { order, payment: order.payment } });
      return Response.json({ data: { ...order, status: 'paid', paidAt: '2026-01-01T00:01:00Z' } });
    });
    const events = open(['sandbox']);
    fireEvent.click(screen.getByTestId('checkout-pay'));
    expect(await screen.findByTestId('payment-paid')).toBeTruthy();
    await waitFor(() => expect(events.onPaid).toHaveBeenCalledTimes(1));
  });
});

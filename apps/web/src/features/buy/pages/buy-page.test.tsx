import type { OrderDto } from '@resi/contract';
import { QueryClientProvider } from '@tanstack/react-query';
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { App } from 'antd';
import { MemoryRouter } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { browser } from '@/lib/api-client';
import { createQueryClient } from '@/lib/query-client';
import { orderFixture } from '@/test/order-fixture';
import BuyPage from './buy-page';

const name = (text: string) => ({ en: text, 'zh-cn': text, zh: text });

const staticOrder: OrderDto = orderFixture(3, {
  orderNo: 'S20260101000000000003',
  kind: 'static',
  status: 'pending',
  items: [{ type: 'static', name: name('Berlin'), regionId: 1, businessId: 1, business: name('E-commerce'), days: 30, quantity: 2, unitPrice: 500 }],
  amount: 1000,
  payment: { type: 'redirect', url: '/api/pay/sandbox/S20260101000000000003?lang=en' },
  paidAt: null,
  expiresAt: '2099-01-01T00:30:00Z',
});

const fetchMock = vi.fn<typeof fetch>();
const posts: { path: string; body: unknown }[] = [];
/** What POST /api/buy/static answers instead of the order, when a test sets it. */
let buyRefusal: Response | null = null;

beforeEach(() => {
  posts.length = 0;
  buyRefusal = null;
  fetchMock.mockReset();
  fetchMock.mockImplementation(async (input, init) => {
    const path = new URL(String(input), 'http://console.test').pathname;
    const answer = (data: unknown) => Response.json({ data });
    if (init?.method === 'POST') {
      posts.push({ path, body: JSON.parse(String(init.body)) as unknown });
      if (path === '/api/buy/static') return buyRefusal ?? answer({ order: staticOrder, payment: staticOrder.payment });
      if (path === '/api/order-check') return answer(staticOrder);
      return answer({});
    }
    switch (path) {
      case '/api/traffic':
        return answer({ balanceBytes: 0, usedBytes: 0, grants: [], series: [], byCountry: [], byAccount: [] });
      case '/api/pay/methods':
        return answer({ methods: ['sandbox'] });
      case '/api/goods':
        return answer({
          packages: [],
          staticPrices: [
            { id: 1, regionId: 1, businessId: 1, days: 30, price: 500, currency: 'USD' },
            { id: 2, regionId: 1, businessId: 1, days: 90, price: 1200, currency: 'USD' },
            { id: 3, regionId: 1, businessId: 2, days: 30, price: 700, currency: 'USD' },
          ],
        });
      case '/api/static-region':
        return answer({
          items: [
            { id: 1, country: 'DE', city: 'berlin', name: name('Berlin'), sort: 0, enabled: true, stock: [{ businessId: 1, available: 3 }, { businessId: 2, available: 0 }] },
            // No price listed: not offered.
            { id: 2, country: 'FR', city: null, name: name('France'), sort: 1, enabled: true, stock: [{ businessId: 1, available: 9 }] },
          ],
        });
      case '/api/business':
        return answer({ items: [{ id: 1, code: 'ecommerce', name: name('E-commerce'), sort: 0, enabled: true }, { id: 2, code: 'social', name: name('Social media'), sort: 1, enabled: true }] });
    }
    return Response.json({ code: 'NOT_FOUND', message: `no stub for ${path}` }, { status: 404 });
  });
  vi.stubGlobal('fetch', fetchMock);
});
afterEach(() => vi.unstubAllGlobals());

async function openStaticTab() {
  render(
    <QueryClientProvider client={createQueryClient()}>
      <App>
        <MemoryRouter>
          <BuyPage />
        </MemoryRouter>
      </App>
    </QueryClientProvider>,
  );
  fireEvent.click(await screen.findByRole('tab', { name: 'Static IPs' }));
  return screen.findByTestId('static-purchase');
}

describe('Package Purchase, static IPs', () => {
  it('offers priced regions and lines with their stock, and prices the quantity', async () => {
    const panel = await openStaticTab();
    expect(within(panel).getByTestId('static-regions').textContent).toBe('Berlin');
    expect(within(panel).getByTestId('static-business-ecommerce').textContent).toContain('E-commerce · 3 left');
    expect(within(panel).getByTestId('static-business-social').textContent).toContain('Social media · Out of stock');
    expect(within(panel).getByTestId('static-unit-price').textContent).toBe('$5.00');

    fireEvent.click(within(panel).getByText('90 days · $12.00 / IP'));
    fireEvent.change(within(panel).getByTestId('static-quantity'), { target: { value: '2' } });
    await waitFor(() => expect(within(panel).getByTestId('static-total').textContent).toBe('$24.00'));
    expect((within(panel).getByTestId('static-buy') as HTMLButtonElement).disabled).toBe(false);
  });

  it('an out-of-stock line cannot be bought', async () => {
    const panel = await openStaticTab();
    fireEvent.click(within(panel).getByTestId('static-business-social'));
    await waitFor(() => expect(within(panel).getByTestId('static-stock').textContent).toBe('Out of stock'));
    expect((within(panel).getByTestId('static-buy') as HTMLButtonElement).disabled).toBe(true);
  });

  it('Buy opens the checkout, which orders the IPs with the chosen method and shows the payment step', async () => {
    const openTab = vi.spyOn(browser, 'openTab').mockReturnValue(null);
    const panel = await openStaticTab();
    fireEvent.change(within(panel).getByTestId('static-quantity'), { target: { value: '2' } });
    await waitFor(() => expect(within(panel).getByTestId('static-total').textContent).toBe('$10.00'));
    fireEvent.click(within(panel).getByTestId('static-buy'));

    const checkout = await screen.findByTestId('checkout-method');
    expect(checkout.textContent).toContain('Berlin');
    expect(checkout.textContent).toContain('E-commerce · 2 IP · 30 days');
    await waitFor(() => expect(screen.getByTestId('checkout-pay').textContent).toContain('Pay $10.00'));
    fireEvent.click(screen.getByTestId('checkout-pay'));

    await screen.findByTestId('payment-step');
    expect(posts).toContainEqual({ path: '/api/buy/static', body: { regionId: 1, businessId: 1, quantity: 2, days: 30, payMethod: 'sandbox' } });
    expect(openTab).toHaveBeenCalledWith('/api/pay/sandbox/S20260101000000000003?lang=en', 'noopener');
  });

  it('says how long the order holds the IPs: the shorter life of a static order', async () => {
    vi.spyOn(browser, 'openTab').mockReturnValue(null);
    const panel = await openStaticTab();
    fireEvent.click(within(panel).getByTestId('static-buy'));
    expect((await screen.findByTestId('checkout-method')).textContent).toContain('The order stays open for 10 minutes and holds your IPs meanwhile.');
    await waitFor(() => expect((screen.getByTestId('checkout-pay') as HTMLButtonElement).disabled).toBe(false));
    fireEvent.click(screen.getByTestId('checkout-pay'));
    expect((await screen.findByTestId('checkout-payment')).textContent).toContain('the order stays open for 10 minutes');
  });

  it('a purchase the server refuses (too many IPs held unpaid) shows its words and stays on the method step', async () => {
    const message = 'Your unpaid orders already hold 100 static IPs (test).';
    buyRefusal = Response.json({ code: 'STATIC_UNPAID_LIMIT', message }, { status: 409 });
    const panel = await openStaticTab();
    fireEvent.click(within(panel).getByTestId('static-buy'));
    await screen.findByTestId('checkout-method');
    await waitFor(() => expect((screen.getByTestId('checkout-pay') as HTMLButtonElement).disabled).toBe(false));
    fireEvent.click(screen.getByTestId('checkout-pay'));
    expect(await screen.findByText(message)).toBeTruthy();
    expect(screen.getByTestId('checkout-method')).toBeTruthy();
    expect(screen.queryByTestId('checkout-payment')).toBeNull();
  });
});

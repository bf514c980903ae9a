import type { OrderDto, StaticProxyDto } from '@resi/contract';
import { QueryClientProvider } from '@tanstack/react-query';
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { App } from 'antd';
import { MemoryRouter } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { browser } from '@/lib/api-client';
import { downloader } from '@/lib/download';
import { createQueryClient } from '@/lib/query-client';
import { orderFixture } from '@/test/order-fixture';
import StaticResidentialPage from './static-residential-page';

const name = (text: string) => ({ en: text, 'zh-cn': text, zh: text });
const DAY = 86_400_000;

const proxy = (id: number, patch: Partial<StaticProxyDto> = {}): StaticProxyDto => ({
  id,
  ip: `203.0.113.${id}`,
  regionId: 1,
  regionName: name('Berlin'),
  country: 'DE',
  city: 'Berlin',
  businessId: 1,
  businessName: name('E-commerce'),
  isp: null,
  username: `suser0000${id}`,
  password: `StaticPass00000${id}`,
  host: 'gw.acme.example',
  httpPort: 9001,
  socksPort: 9002,
  startsAt: '2026-01-01T00:00:00Z',
  // Mid-day, so the countdown reads the same whole number of days however long the test takes.
  expiresAt: new Date(Date.now() + 3 * DAY + DAY / 2).toISOString(),
  status: 'active',
  remark: null,
  replacementsLeft: 2,
  bytesToday: 3 * 1024 ** 2,
  bytes30Days: 1.5 * 1024 ** 3,
  ...patch,
});

const active = proxy(1);
const grace = proxy(2, { status: 'grace', replacementsLeft: 0, expiresAt: new Date(Date.now() - DAY).toISOString(), businessId: 2, businessName: name('Social media') });
const renewOrder: OrderDto = orderFixture(7, {
  orderNo: 'R20260101000000000007',
  kind: 'static-renew',
  status: 'pending',
  items: [{ type: 'static-renew', name: name('Germany'), staticProxyId: 1, ip: active.ip, days: 30, quantity: 1, unitPrice: 500 }],
  amount: 500,
  payment: { type: 'redirect', url: '/api/pay/sandbox/R20260101000000000007?lang=en' },
  paidAt: null,
  expiresAt: '2099-01-01T00:30:00Z',
});

const fetchMock = vi.fn<typeof fetch>();
const posts: { path: string; body: unknown }[] = [];
let listed: StaticProxyDto[] = [];

beforeEach(() => {
  posts.length = 0;
  listed = [active, grace];
  fetchMock.mockReset();
  fetchMock.mockImplementation(async (input, init) => {
    const path = new URL(String(input), 'http://console.test').pathname;
    const answer = (data: unknown) => Response.json({ data });
    if (init?.method === 'PUT' && path === '/api/proxy/static/1') {
      const body = JSON.parse(String(init.body)) as { remark: string | null };
      posts.push({ path, body });
      listed = [{ ...active, remark: body.remark }, grace];
      return answer(listed[0]);
    }
    if (init?.method === 'POST') {
      const body: unknown = JSON.parse(String(init.body));
      posts.push({ path, body });
      if (path === '/api/buy/static-renew') return answer({ order: renewOrder, payment: renewOrder.payment });
      if (path === '/api/proxy/static/1/replace') {
        listed = [{ ...active, ip: '203.0.113.99', replacementsLeft: 1 }, grace];
        return answer(listed[0]);
      }
      if (path === '/api/order-check') return answer(renewOrder);
    }
    switch (path) {
      case '/api/proxy/static':
        return answer({ items: listed, total: listed.length, page: 1, pageSize: 10 });
      case '/api/static-region':
        return answer({ items: [{ id: 1, country: 'DE', city: 'berlin', name: name('Berlin'), sort: 0, enabled: true, stock: [{ businessId: 1, available: 4 }] }] });
      case '/api/business':
        return answer({ items: [{ id: 1, code: 'ecommerce', name: name('E-commerce'), sort: 0, enabled: true }, { id: 2, code: 'social', name: name('Social media'), sort: 1, enabled: true }] });
      case '/api/record/static-order':
        return answer({ items: [renewOrder], total: 1, page: 1, pageSize: 10 });
      case '/api/goods':
        return answer({
          packages: [],
          staticPrices: [
            { id: 1, regionId: 1, businessId: 1, days: 30, price: 500, currency: 'USD' },
            { id: 2, regionId: 1, businessId: 1, days: 90, price: 1200, currency: 'USD' },
            { id: 3, regionId: 1, businessId: 2, days: 30, price: 700, currency: 'USD' },
          ],
        });
      case '/api/pay/methods':
        return answer({ methods: ['sandbox'] });
    }
    return Response.json({ code: 'NOT_FOUND', message: `no stub for ${path}` }, { status: 404 });
  });
  vi.stubGlobal('fetch', fetchMock);
});
afterEach(() => vi.unstubAllGlobals());

function renderPage() {
  render(
    <QueryClientProvider client={createQueryClient()}>
      <App>
        <MemoryRouter>
          <StaticResidentialPage />
        </MemoryRouter>
      </App>
    </QueryClientProvider>,
  );
}

async function rows(): Promise<HTMLElement[]> {
  const card = screen.getByTestId('static-proxies');
  await waitFor(() => expect(card.querySelectorAll('tbody tr.ant-table-row')).toHaveLength(listed.length));
  await waitFor(() => expect(card.textContent).toContain('E-commerce'));
  return [...card.querySelectorAll('tbody tr.ant-table-row')] as HTMLElement[];
}

describe('StaticResidentialPage', () => {
  it('lists each IP with its place, line, status, time left, login, both proxy lines, its own traffic and replacements left', async () => {
    renderPage();
    const [first, second] = await rows();
    const text = first!.textContent!;
    expect(text).toContain('203.0.113.1');
    // The operator's region name, with the country.
    expect(text).toContain('BerlinGermany');
    expect(text).toContain('E-commerce');
    expect(within(first!).getByTestId('static-status').textContent).toBe('Active');
    expect(within(first!).getByTestId('static-time-left').textContent).toBe('in 3 days');
    expect(text).toContain('suser00001');
    expect(text).toContain('StaticPass000001');
    const lines = screen.getAllByTestId('static-lines').find((el) => el.dataset.ip === active.ip)!;
    expect(lines.textContent).toContain('http://suser00001:StaticPass000001@gw.acme.example:9001');
    expect(lines.textContent).toContain('socks5h://suser00001:StaticPass000001@gw.acme.example:9002');
    expect((within(first!).getByTestId('static-replace') as HTMLButtonElement).disabled).toBe(false);
    expect(within(first!).getByTestId('static-traffic').textContent).toBe('Today 3 MB30 days 1.5 GB');

    expect(second!.textContent).toContain('Social media');
    expect(within(second!).getByTestId('static-status').textContent).toBe('Grace period');
    expect(within(second!).getByTestId('static-time-left').textContent).toBe('Expired');
    // Not active and no replacement left: no replacing, but renewing is still offered.
    expect((within(second!).getByTestId('static-replace') as HTMLButtonElement).disabled).toBe(true);
    expect((within(second!).getByTestId('static-renew-one') as HTMLButtonElement).disabled).toBe(false);

    expect(await screen.findByText('R20260101000000000007')).toBeTruthy();
  });

  it('renews the selected IPs for days listed for all of them, through the payment step', async () => {
    const openTab = vi.spyOn(browser, 'openTab').mockReturnValue(null);
    renderPage();
    const [first, second] = await rows();
    expect((screen.getByTestId('static-renew') as HTMLButtonElement).disabled).toBe(true);
    fireEvent.click(within(first!).getByRole('checkbox'));
    fireEvent.click(within(second!).getByRole('checkbox'));
    fireEvent.click(screen.getByTestId('static-renew'));

    const modal = await screen.findByTestId('renew-choice');
    // 90 days is listed for the first IP's line only: 30 days is the one choice, priced $5 + $7.
    await waitFor(() => expect(screen.getByTestId('renew-total').textContent).toBe('$12.00'));
    expect(modal.textContent).toContain('203.0.113.1, 203.0.113.2');
    await waitFor(() => expect((screen.getByTestId('renew-pay') as HTMLButtonElement).disabled).toBe(false));
    fireEvent.click(screen.getByTestId('renew-pay'));

    await screen.findByTestId('payment-step');
    expect(posts[0]).toEqual({ path: '/api/buy/static-renew', body: { staticProxyIds: [1, 2], days: 30, payMethod: 'sandbox' } });
    expect(openTab).toHaveBeenCalledWith('/api/pay/sandbox/R20260101000000000007?lang=en', 'noopener');
  });

  it('replaces an IP with a reason and note, showing the quota, then lists the new exit', async () => {
    renderPage();
    const [first] = await rows();
    fireEvent.click(within(first!).getByTestId('static-replace'));
    expect((await screen.findByTestId('replace-quota')).textContent).toContain('Replacements left for this IP: 2');
    fireEvent.change(screen.getByTestId('replace-note'), { target: { value: '  times out  ' } });
    fireEvent.click(screen.getByTestId('replace-submit'));

    await waitFor(() => expect(posts).toEqual([{ path: '/api/proxy/static/1/replace', body: { reason: 'not-working', note: 'times out' } }]));
    expect(await screen.findByText('Replaced: your new IP is 203.0.113.99.')).toBeTruthy();
    await waitFor(() => expect(screen.getByTestId('static-proxies').textContent).toContain('203.0.113.99'));
  });

  it('keeps a remark on an IP, edited in place', async () => {
    renderPage();
    const [first] = await rows();
    fireEvent.click(within(first!).getByRole('button', { name: 'Edit remark' }));
    const box = within(first!).getByRole('textbox');
    fireEvent.change(box, { target: { value: ' shop checker ' } });
    fireEvent.keyDown(box, { key: 'Enter', keyCode: 13 });
    fireEvent.keyUp(box, { key: 'Enter', keyCode: 13 });
    await waitFor(() => expect(posts).toEqual([{ path: '/api/proxy/static/1', body: { remark: 'shop checker' } }]));
    await waitFor(() => expect(within(screen.getByTestId('static-proxies')).getAllByTestId('static-remark')[0]!.textContent).toBe('shop checker'));
  });

  it('exports the lines on screen as a text file', async () => {
    const createUrl = vi.spyOn(downloader, 'createUrl').mockReturnValue('blob:static');
    vi.spyOn(downloader, 'revokeUrl').mockImplementation(() => undefined);
    renderPage();
    await rows();
    fireEvent.click(screen.getByTestId('static-export'));
    const blob = createUrl.mock.calls[0]![0];
    expect((await blob.text()).split('\n')).toEqual([
      'http://suser00001:StaticPass000001@gw.acme.example:9001',
      'socks5h://suser00001:StaticPass000001@gw.acme.example:9002',
      'http://suser00002:StaticPass000002@gw.acme.example:9001',
      'socks5h://suser00002:StaticPass000002@gw.acme.example:9002',
      '',
    ]);
  });
});

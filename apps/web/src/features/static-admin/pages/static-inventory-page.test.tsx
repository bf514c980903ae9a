import type { StaticInventoryDto, StaticInventoryEvent, StaticStockCell } from '@resi/contract';
import { QueryClientProvider } from '@tanstack/react-query';
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { App } from 'antd';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createQueryClient } from '@/lib/query-client';
import { formatDateTime } from '@/lib/format';
import StaticInventoryPage from './static-inventory-page';

const name = (text: string) => ({ en: text, 'zh-cn': text, zh: text });
const page = <T,>(items: T[]) => ({ items, total: items.length, page: 1, pageSize: 20 });

const row: StaticInventoryDto = {
  id: 5,
  ip: '203.0.113.5',
  regionId: 1,
  businessIds: [2],
  isp: 'Example ISP',
  protocol: 'http',
  upstream: 'http://alice:••••@203.0.113.5:8000',
  status: 'free',
  cooldownUntil: null,
  remark: null,
  costPerMonth: 300,
  currency: 'USD',
  holder: null,
  createdAt: '2026-01-01T00:00:00Z',
  updatedAt: '2026-01-01T00:00:00Z',
};
/** A row a customer holds: it can be extended at no charge. */
const held: StaticInventoryDto = { ...row, id: 6, ip: '203.0.113.6', status: 'allocated', holder: { allocationId: 41, userId: 7, expiresAt: '2026-02-01T00:00:00Z' } };
/** A row resting after its last holder: when it is free again is said under its status. */
const cooling: StaticInventoryDto = { ...row, id: 7, ip: '203.0.113.7', status: 'cooldown', cooldownUntil: '2026-01-03T10:30:00Z' };
const none = { free: 0, reserved: 0, allocated: 0, grace: 0, cooldown: 0, retired: 0 };
const board: StaticStockCell[] = [
  { regionId: 1, businessId: null, counts: { ...none, free: 3, retired: 1 } },
  { regionId: 1, businessId: 2, counts: { ...none, allocated: 2 } },
];
const retired: StaticInventoryEvent = { id: 9, event: 'retired', userId: null, orderId: null, actorId: 1, reason: 'blocked upstream', at: '2026-01-02T00:00:00Z' };

interface Call {
  method: string;
  path: string;
  body: unknown;
}

/** The server as the page sees it; `failing` paths answer 500 until removed. */
function stubServer() {
  const calls: Call[] = [];
  const failing = new Set<string>();
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: string, init?: RequestInit) => {
      const url = new URL(String(input), 'http://console.test');
      const method = init?.method ?? 'GET';
      const body = typeof init?.body === 'string' ? (JSON.parse(init.body) as unknown) : undefined;
      calls.push({ method, path: url.pathname, body });
      if (failing.has(url.pathname)) return Response.json({ code: 'INTERNAL', message: 'Board down (test).' }, { status: 500 });
      const key = `${method} ${url.pathname}`;
      switch (key) {
        case 'GET /api/manage/static-region':
          return Response.json({ data: { items: [{ id: 1, country: 'DE', city: null, name: name('Germany'), sort: 0, enabled: true }] } });
        case 'GET /api/goods':
          return Response.json({ data: { packages: [], staticPrices: [{ id: 1, regionId: 1, businessId: 2, days: 30, price: 900, currency: 'USD' }] } });
        case 'GET /api/manage/business':
          return Response.json({ data: { items: [{ id: 2, code: 'ecommerce', name: name('E-commerce'), sort: 0, enabled: true }] } });
        case 'GET /api/manage/static-inventory/board':
          return Response.json({ data: { items: board } });
        case 'GET /api/manage/static-inventory':
          return Response.json({ data: page([row, held, cooling]) });
        case 'GET /api/manage/static-inventory/5/history':
          return Response.json({ data: { items: [retired] } });
        case 'POST /api/manage/static-inventory':
          return Response.json({
            data: {
              results: [
                { line: 1, status: 'created', ip: '198.51.100.1', id: 6, reason: null },
                { line: 2, status: 'invalid', ip: null, id: null, reason: 'Not a proxy line (test).' },
              ],
              created: 1,
              duplicate: 0,
              invalid: 1,
            },
            message: '1 created, 0 duplicate, 1 invalid (test).',
          });
        case 'PUT /api/manage/static-inventory/5':
          return Response.json({ data: { ...row, ...(body as object) }, message: 'Saved (test).' });
        case 'POST /api/manage/static-renew-recharge':
          return Response.json({ data: { orders: [] }, message: 'Extended (test).' });
        case 'DELETE /api/manage/static-inventory/5':
          return Response.json({ data: { ...row, status: 'retired' }, message: 'Retired (test).' });
        default:
          return Response.json({ code: 'NOT_FOUND', message: `no ${key}` }, { status: 404 });
      }
    }),
  );
  return { calls, failing };
}

function renderPage() {
  return render(
    <QueryClientProvider client={createQueryClient()}>
      <App>
        <StaticInventoryPage />
      </App>
    </QueryClientProvider>,
  );
}

const waitLong = { timeout: 10_000 };

afterEach(() => vi.unstubAllGlobals());

// A modal or page with antd selects takes seconds to drive on a loaded 2-core machine: a budget, not a wait.
describe('Static Inventory page', { timeout: 30_000 }, () => {
  let server: ReturnType<typeof stubServer>;
  beforeEach(() => {
    server = stubServer();
  });

  it('shows the board by region × line and the rows with names, the ISP, the masked upstream, the status (a cooldown with its end) and the monthly cost', async () => {
    renderPage();
    const boardTable = await screen.findByTestId('static-board', {}, waitLong);
    const allLines = within(boardTable).getByText('All lines').closest('tr')!;
    expect(allLines.textContent).toContain('Germany');
    expect([...allLines.querySelectorAll('td')].map((td) => td.textContent)).toEqual(['Germany', 'All lines', '3', '0', '0', '0', '0', '1']);
    expect(within(boardTable).getByText('E-commerce').closest('tr')!.textContent).toContain('2');

    const list = await screen.findByTestId('static-inventory', {}, waitLong);
    const tr = await within(list).findByText('203.0.113.5', {}, waitLong);
    const cells = tr.closest('tr')!.textContent;
    expect(cells).toContain('Germany');
    expect(cells).toContain('E-commerce');
    expect(cells).toContain('http://alice:••••@203.0.113.5:8000');
    expect(cells).toContain('Free');
    expect(cells).toContain('Example ISP');
    expect(within(tr.closest('tr')!).getByTestId('inventory-cost').textContent).toBe('$3.00');
    const resting = (await within(list).findByText('203.0.113.7')).closest('tr')!;
    expect(resting.textContent).toContain(`Cooldownuntil ${formatDateTime(cooling.cooldownUntil)}`);
  });

  it('a failed board shows its own error with Retry while the list still shows', async () => {
    server.failing.add('/api/manage/static-inventory/board');
    renderPage();
    const error = await screen.findByTestId('query-error', {}, waitLong);
    expect(error.textContent).toContain('The stock board could not be loaded');
    expect(error.textContent).toContain('Board down (test).');
    expect(screen.queryByTestId('static-board')).toBeNull();
    await within(await screen.findByTestId('static-inventory', {}, waitLong)).findByText('203.0.113.5', {}, waitLong);

    server.failing.clear();
    fireEvent.click(screen.getByTestId('query-retry'));
    expect((await screen.findByTestId('static-board', {}, waitLong)).textContent).toContain('All lines');
  });

  it('imports pasted lines and shows every line’s outcome and the summary', async () => {
    renderPage();
    const card = await screen.findByTestId('static-import', {}, waitLong);
    fireEvent.mouseDown(within(card).getAllByRole('combobox')[0]!);
    fireEvent.click(await screen.findByTitle('Germany', {}, waitLong));
    fireEvent.change(within(card).getByTestId('import-lines'), { target: { value: 'http://u:p@198.51.100.1:8000\nnot a line' } });
    // The monthly cost is typed in the shop currency's major units and sent in minor units.
    fireEvent.change(await within(card).findByTestId('import-cost', {}, waitLong), { target: { value: '7.25' } });
    fireEvent.click(within(card).getByTestId('import-submit'));

    const results = await screen.findByTestId('import-results', {}, waitLong);
    expect(within(results).getByTestId('import-summary').textContent).toContain('1 created, 0 duplicate, 1 invalid (test).');
    const lines = [...results.querySelectorAll('tbody tr.ant-table-row')].map((tr) => [...tr.querySelectorAll('td')].map((td) => td.textContent));
    expect(lines).toEqual([
      ['1', 'Created', '198.51.100.1', '—'],
      ['2', 'Invalid', '—', 'Not a proxy line (test).'],
    ]);
    // The taken line leaves the box with its password; the invalid one stays to be fixed.
    expect((within(card).getByTestId('import-lines') as HTMLTextAreaElement).value).toBe('not a line');
    const post = server.calls.find((c) => c.method === 'POST');
    expect(post?.body).toEqual({ regionId: 1, businessIds: [], lines: 'http://u:p@198.51.100.1:8000\nnot a line', costPerMonth: 725 });
    // The list and the board are asked again: the import changed both.
    await waitFor(() => expect(server.calls.filter((c) => c.path === '/api/manage/static-inventory/board').length).toBe(2), waitLong);
  });

  it('retires a row with the reason typed in the confirmation and shows its history', async () => {
    renderPage();
    const list = await screen.findByTestId('static-inventory', {}, waitLong);
    await within(list).findByText('203.0.113.5', {}, waitLong);
    fireEvent.click(within(list).getAllByTestId('retire-row')[0]!);
    fireEvent.change(await screen.findByTestId('retire-reason', {}, waitLong), { target: { value: '  blocked upstream ' } });
    fireEvent.click(screen.getByTestId('retire-confirm'));
    await waitFor(() => expect(server.calls.find((c) => c.method === 'DELETE')?.body).toEqual({ reason: 'blocked upstream' }), waitLong);
    expect(server.calls.find((c) => c.method === 'DELETE')?.path).toBe('/api/manage/static-inventory/5');

    fireEvent.click(within(list).getAllByTestId('history-row')[0]!);
    const event = await screen.findByTestId('history-event', {}, waitLong);
    expect(event.textContent).toContain('Retired');
    expect(event.textContent).toContain('Reason: blocked upstream');
    expect(event.textContent).toContain('by admin #1');
  });

  it('edits a row: lines cleared to all, ISP and remark trimmed, empty ISP sent as null, the monthly cost typed in dollars sent in cents', async () => {
    renderPage();
    const list = await screen.findByTestId('static-inventory', {}, waitLong);
    await within(list).findByText('203.0.113.5', {}, waitLong);
    fireEvent.click(within(list).getAllByTestId('edit-row')[0]!);
    const modal = await screen.findByTestId('static-edit', {}, waitLong);
    expect(within(modal).getByText('E-commerce')).toBeTruthy();
    fireEvent.click(within(modal).getByText('E-commerce').closest('.ant-select-selection-item')!.querySelector('.ant-select-selection-item-remove')!);
    fireEvent.change(within(modal).getByDisplayValue('Example ISP'), { target: { value: '   ' } });
    fireEvent.change(within(modal).getByTestId('edit-remark'), { target: { value: ' rack 4 ' } });
    const cost = within(modal).getByTestId('edit-cost') as HTMLInputElement;
    expect(cost.value).toBe('3.00');
    fireEvent.change(cost, { target: { value: '12.5' } });
    fireEvent.click(screen.getByTestId('edit-submit'));
    await waitFor(() => expect(server.calls.find((c) => c.method === 'PUT')?.body).toEqual({ regionId: 1, businessIds: [], isp: null, remark: 'rack 4', costPerMonth: 1250 }), waitLong);
  });

  it('extends the IP a customer holds on a row, at no charge, with a note; a free row cannot be extended', async () => {
    renderPage();
    const list = await screen.findByTestId('static-inventory', {}, waitLong);
    await within(list).findByText('203.0.113.6', {}, waitLong);
    const [free, holding] = within(list).getAllByTestId('extend-row');
    expect((free as HTMLButtonElement).disabled).toBe(true);
    fireEvent.click(holding!);
    expect((await screen.findByTestId('extend-holder', {}, waitLong)).textContent).toContain('#7');
    fireEvent.change(screen.getByTestId('extend-days'), { target: { value: '10' } });
    fireEvent.change(screen.getByTestId('extend-note'), { target: { value: ' outage on the 3rd ' } });
    fireEvent.click(screen.getByTestId('extend-submit'));
    await waitFor(() => expect(server.calls.find((c) => c.path === '/api/manage/static-renew-recharge')?.body).toEqual({ staticProxyIds: [41], days: 10, note: 'outage on the 3rd' }), waitLong);
  });
});

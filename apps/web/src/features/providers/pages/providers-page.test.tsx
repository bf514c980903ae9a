import type { ProviderDto } from '@resi/contract';
import { QueryClientProvider } from '@tanstack/react-query';
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { App } from 'antd';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { BYTES_PER_GB } from '@/lib/format';
import { createQueryClient } from '@/lib/query-client';
import { PROVIDERS_REFRESH_MS, providersQueryOptions } from '../api/get-providers';
import ProvidersPage from './providers-page';

const health: ProviderDto['health'] = {
  state: 'up',
  successRate: 0.985,
  connectP50Ms: 120,
  connectP95Ms: 340.4,
  attempts: 200,
  lastProbeAt: '2026-01-02T00:00:00Z',
  probeLatencyMs: 150,
  probeCountry: 'US',
  countryMismatch: false,
  lastError: null,
  since: null,
};
const healthy: ProviderDto = {
  id: 1,
  name: 'Supplier One',
  template: '',
  upstreams: [
    { url: 'http://alice:****@198.51.100.7:8000', country: 'US', state: 'ca', city: null },
    { url: 'socks5://bob:****@198.51.100.8:1080', country: null, state: null, city: null },
  ],
  regions: [],
  priority: 1,
  weight: 100,
  costPerGb: { amount: 150, currency: 'USD', from: '2026-01-01' },
  costs: [{ amount: 150, currency: 'USD', from: '2026-01-01' }],
  monthlyQuotaGb: 100,
  status: 'enabled',
  health,
  usage: { bytesToday: 2 * BYTES_PER_GB, bytesMonth: 25 * BYTES_PER_GB },
};
/** Down, serving Germany only, with its last probe leaving from elsewhere. */
const failing: ProviderDto = {
  ...healthy,
  id: 2,
  name: 'Supplier Two',
  template: 'http://USER-country-{country}-session-{session}:****@gate.example.net:7000',
  upstreams: [],
  regions: ['DE'],
  priority: 2,
  weight: 50,
  monthlyQuotaGb: null,
  status: 'paused',
  health: { ...health, state: 'down', successRate: null, connectP50Ms: null, connectP95Ms: null, countryMismatch: true, probeCountry: 'FR', lastError: 'UPSTREAM_REFUSED' },
};

interface Call {
  method: string;
  path: string;
  body: unknown;
}

/** The server as the page sees it; `saveAnswer` is what a POST or PUT of a provider gets. */
function stubServer() {
  const calls: Call[] = [];
  const state = { saveAnswer: (body: unknown) => Response.json({ data: { ...healthy, ...(body as object) }, message: 'Provider saved (test).' }) };
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: string, init?: RequestInit) => {
      const url = new URL(String(input), 'http://console.test');
      const method = init?.method ?? 'GET';
      const body = typeof init?.body === 'string' ? (JSON.parse(init.body) as unknown) : undefined;
      calls.push({ method, path: url.pathname, body });
      const key = `${method} ${url.pathname}`;
      switch (key) {
        case 'GET /api/manage/providers':
          return Response.json({ data: { items: [healthy, failing] } });
        case 'GET /api/goods':
          return Response.json({ data: { packages: [], staticPrices: [{ id: 1, regionId: 1, businessId: 1, days: 30, price: 500, currency: 'EUR' }] } });
        case 'GET /api/manage/supply':
          return Response.json({ data: { directEgress: false, checkUrl: 'https://probe.example.net/json', probeSeconds: 60 } });
        case 'POST /api/manage/supply':
          return Response.json({ data: body, message: 'Settings saved (test).' });
        case 'POST /api/manage/providers':
        case 'PUT /api/manage/providers/1':
          return state.saveAnswer(body);
        case 'DELETE /api/manage/providers/2':
          return Response.json({ data: null, message: 'Provider deleted (test).' });
        default:
          return Response.json({ code: 'NOT_FOUND', message: `no ${key}` }, { status: 404 });
      }
    }),
  );
  return { calls, state };
}

function renderPage() {
  return render(
    <QueryClientProvider client={createQueryClient()}>
      <App>
        <ProvidersPage />
      </App>
    </QueryClientProvider>,
  );
}

const waitLong = { timeout: 10_000 };
const today = new Date().toISOString().slice(0, 10);
const rowOf = async (name: string) => (await within(await screen.findByTestId('providers-table', {}, waitLong)).findByText(name, {}, waitLong)).closest('tr')!;

afterEach(() => vi.unstubAllGlobals());

// A modal with antd selects and a date picker takes seconds to drive on a loaded 2-core machine: a budget, not a wait.
describe('Providers page', { timeout: 30_000 }, () => {
  let server: ReturnType<typeof stubServer>;
  beforeEach(() => {
    server = stubServer();
  });

  it('lists the providers with their live health, usage against the quota, cost and routing', async () => {
    renderPage();
    const one = await rowOf('Supplier One');
    expect(within(one).getByTestId('provider-status-tag').textContent).toBe('Enabled');
    expect(within(one).getByTestId('provider-health').textContent).toBe('Up');
    expect(within(one).getByTestId('provider-dials').textContent).toBe('98.5%p50 120 ms · p95 340 ms');
    expect(within(one).getByTestId('provider-traffic').textContent).toBe('Today 2 GBThis month 25 GB of 100 GB');
    expect(one.querySelector('.ant-progress')).not.toBeNull();
    expect(within(one).getByTestId('provider-cost').textContent).toBe('$1.50');
    expect(within(one).getByTestId('provider-routing').textContent).toBe('Priority 1 · weight 100All regions');
    expect(within(one).queryByTestId('provider-mismatch')).toBeNull();

    const two = await rowOf('Supplier Two');
    expect(within(two).getByTestId('provider-status-tag').textContent).toBe('Paused');
    expect(within(two).getByTestId('provider-health').className).toContain('red');
    expect(within(two).getByTestId('provider-health').textContent).toBe('Down');
    expect(within(two).getByTestId('provider-mismatch').textContent).toContain('Exit country mismatch');
    expect(within(two).getByTestId('provider-dials').textContent).toBe('—No dials in the last window');
    expect(within(two).getByTestId('provider-traffic').textContent).toBe('Today 2 GBThis month 25 GB');
    expect(two.querySelector('.ant-progress')).toBeNull();
    expect(within(two).getByTestId('provider-routing').textContent).toContain('DE');
    // The last error is in the health tag's tooltip.
    fireEvent.mouseEnter(within(two).getByTestId('provider-health'));
    expect((await screen.findByRole('tooltip', {}, waitLong)).textContent).toContain('the upstream refused the connection (UPSTREAM_REFUSED)');

    expect(((await screen.findByTestId('supply-check-url', {}, waitLong)) as HTMLInputElement).value).toBe('https://probe.example.net/json');
  });

  it('asks the list again every 10 s while it answers, and stops after a failure until Retry', () => {
    const interval = providersQueryOptions().refetchInterval as (query: { state: { status: string } }) => number | false;
    expect(PROVIDERS_REFRESH_MS).toBe(10_000);
    expect(interval({ state: { status: 'success' } })).toBe(10_000);
    expect(interval({ state: { status: 'error' } })).toBe(false);
  });

  it('edits a provider: sends back the masked secrets as they came and the new cost from today', async () => {
    renderPage();
    fireEvent.click(within(await rowOf('Supplier One')).getByTestId('provider-edit'));
    const modal = await screen.findByTestId('provider-modal', {}, waitLong);
    expect((within(modal).getByTestId('provider-upstreams') as HTMLTextAreaElement).value).toBe('http://alice:****@198.51.100.7:8000,US,ca\nsocks5://bob:****@198.51.100.8:1080');
    expect((within(modal).getByTestId('provider-cost') as HTMLInputElement).value).toBe('1.50');
    fireEvent.change(within(modal).getByTestId('provider-weight'), { target: { value: '250' } });
    fireEvent.change(within(modal).getByTestId('provider-cost'), { target: { value: '1.75' } });
    fireEvent.click(screen.getByTestId('provider-submit'));

    await waitFor(() => expect(server.calls.find((c) => c.method === 'PUT')).toBeDefined(), waitLong);
    const put = server.calls.find((c) => c.method === 'PUT')!;
    expect(put.path).toBe('/api/manage/providers/1');
    expect(put.body).toEqual({
      name: 'Supplier One',
      template: '',
      upstreams: [
        { url: 'http://alice:****@198.51.100.7:8000', country: 'US', state: 'ca', city: null },
        { url: 'socks5://bob:****@198.51.100.8:1080', country: null, state: null, city: null },
      ],
      regions: [],
      priority: 1,
      weight: 250,
      costPerGb: { amount: 175, currency: 'USD', from: today },
      monthlyQuotaGb: 100,
      status: 'enabled',
    });
    await screen.findByText('Provider saved (test).', {}, waitLong);
    // The dialog closes (jsdom never ends antd's leave motion, so the closing is what can be seen).
    await waitFor(() => expect(screen.getByTestId('provider-modal').querySelector('.ant-modal')?.className).toContain('ant-zoom-leave'), waitLong);
    // Saved: the list is asked again.
    await waitFor(() => expect(server.calls.filter((c) => c.method === 'GET' && c.path === '/api/manage/providers').length).toBeGreaterThanOrEqual(2), waitLong);
  });

  it('shows the server’s refusal and keeps the dialog open with what was typed', async () => {
    server.state.saveAnswer = () => Response.json({ code: 'PROVIDER_NAME_TAKEN', message: 'A provider of that name exists (test).' }, { status: 409 });
    renderPage();
    fireEvent.click(within(await rowOf('Supplier One')).getByTestId('provider-edit'));
    const modal = await screen.findByTestId('provider-modal', {}, waitLong);
    fireEvent.change(within(modal).getByTestId('provider-name'), { target: { value: 'Supplier Two' } });
    fireEvent.click(screen.getByTestId('provider-submit'));
    await screen.findByText('A provider of that name exists (test).', {}, waitLong);
    expect(screen.getByTestId('provider-modal')).toBeTruthy();
    expect((within(modal).getByTestId('provider-name') as HTMLInputElement).value).toBe('Supplier Two');
  });

  it('refuses a bad upstream line by its number, and a provider with no exit, before asking the server', async () => {
    renderPage();
    fireEvent.click(within(await rowOf('Supplier One')).getByTestId('provider-edit'));
    const modal = await screen.findByTestId('provider-modal', {}, waitLong);
    const lines = within(modal).getByTestId('provider-upstreams');
    fireEvent.change(lines, { target: { value: 'http://alice:****@198.51.100.7:8000\n\nnot-a-proxy,US' } });
    fireEvent.click(screen.getByTestId('provider-submit'));
    expect((await within(modal).findByText(/^Line 3: /, {}, waitLong)).textContent).toContain('Enter an upstream proxy');

    fireEvent.change(lines, { target: { value: '' } });
    fireEvent.click(screen.getByTestId('provider-submit'));
    await within(modal).findByText('Give the provider a template, upstream proxies, or both.', {}, waitLong);
    expect(server.calls.filter((c) => c.method === 'PUT')).toEqual([]);
  });

  it('adds a provider in the shop’s currency, from today (UTC), with regions upper-cased', async () => {
    renderPage();
    await rowOf('Supplier One');
    fireEvent.click(screen.getByTestId('provider-add'));
    const modal = await screen.findByTestId('provider-modal', {}, waitLong);
    // The catalogue's prices carry the shop's currency.
    expect((within(modal).getByTestId('provider-currency') as HTMLInputElement).value).toBe('EUR');
    fireEvent.change(within(modal).getByTestId('provider-name'), { target: { value: ' Supplier Three ' } });
    fireEvent.change(within(modal).getByTestId('provider-upstreams'), { target: { value: 'http://carol:secret@203.0.113.9:8000,gb' } });
    const regions = within(modal).getByTestId('provider-regions').querySelector('input')!;
    fireEvent.change(regions, { target: { value: 'gb,' } });
    fireEvent.change(within(modal).getByTestId('provider-cost'), { target: { value: '0.8' } });
    fireEvent.change(within(modal).getByTestId('provider-quota'), { target: { value: '250' } });
    fireEvent.click(screen.getByTestId('provider-submit'));
    await waitFor(() => expect(server.calls.find((c) => c.method === 'POST' && c.path === '/api/manage/providers')).toBeDefined(), waitLong);
    expect(server.calls.find((c) => c.method === 'POST')!.body).toEqual({
      name: 'Supplier Three',
      template: '',
      upstreams: [{ url: 'http://carol:secret@203.0.113.9:8000', country: 'GB', state: null, city: null }],
      regions: ['GB'],
      priority: 1,
      weight: 100,
      costPerGb: { amount: 80, currency: 'EUR', from: today },
      monthlyQuotaGb: 250,
      status: 'enabled',
    });
  });

  it('deletes a provider after the confirmation', async () => {
    renderPage();
    fireEvent.click(within(await rowOf('Supplier Two')).getByTestId('provider-delete'));
    fireEvent.click(await screen.findByTestId('provider-delete-confirm', {}, waitLong));
    await waitFor(() => expect(server.calls.find((c) => c.method === 'DELETE')).toEqual({ method: 'DELETE', path: '/api/manage/providers/2', body: {} }), waitLong);
    await screen.findByText('Provider deleted (test).', {}, waitLong);
  });

  it('saves the probe and egress settings', async () => {
    renderPage();
    const seconds = await screen.findByTestId('supply-probe-seconds', {}, waitLong);
    fireEvent.change(seconds, { target: { value: '120' } });
    fireEvent.click(screen.getByTestId('supply-save'));
    await waitFor(() => expect(server.calls.find((c) => c.method === 'POST' && c.path === '/api/manage/supply')?.body).toEqual({ directEgress: false, checkUrl: 'https://probe.example.net/json', probeSeconds: 120 }), waitLong);
  });
});

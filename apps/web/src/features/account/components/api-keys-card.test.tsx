import type { ApiKeyDto } from '@resi/contract';
import { QueryClientProvider } from '@tanstack/react-query';
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { App } from 'antd';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { createQueryClient } from '@/lib/query-client';
import { storage } from '@/lib/storage';
import { ApiKeysCard } from './api-keys-card';

const SECRET = 'rk_live_0123456789abcdef0123456789abcdef';

const scraper: ApiKeyDto = {
  id: 1,
  name: 'price scraper',
  prefix: 'rk_live_ab12',
  scopes: ['read', 'buy'],
  expiresAt: null,
  allowlist: ['203.0.113.7', '198.51.100.0/24'],
  dailySpendCap: 5000,
  createdAt: '2026-01-01T00:00:00Z',
  lastUsedAt: '2026-01-02T08:30:00Z',
  lastUsedIp: '203.0.113.7',
  callsToday: 1234,
  spentToday: 2500,
};

let keys: ApiKeyDto[];
let listFails: boolean;
const calls: { method: string; path: string; body: unknown }[] = [];

beforeEach(() => {
  keys = [scraper];
  listFails = false;
  calls.length = 0;
  storage.setToken('session-token');
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: string, init?: RequestInit) => {
      const path = new URL(String(input), 'http://console.test').pathname;
      const method = init?.method ?? 'GET';
      calls.push({ method, path, body: init?.body ? JSON.parse(String(init.body)) : undefined });
      if (path === '/api/goods') return Response.json({ data: { packages: [{ id: 2, currency: 'USD' }], staticPrices: [] } });
      if (path === '/api/user/api-keys' && method === 'GET' && listFails) return Response.json({ code: 'INTERNAL', message: 'Server error (test).' }, { status: 500 });
      if (path === '/api/user/api-keys' && method === 'GET') return Response.json({ data: { items: keys } });
      if (path === '/api/user/api-keys' && method === 'POST') {
        const body = JSON.parse(String(init?.body)) as Pick<ApiKeyDto, 'name' | 'scopes'>;
        const made: ApiKeyDto = { ...scraper, id: 2, name: body.name, prefix: 'rk_live_cd34', scopes: body.scopes, allowlist: [], dailySpendCap: null, lastUsedAt: null, lastUsedIp: null, callsToday: 0, spentToday: 0 };
        keys = [...keys, made];
        return Response.json({ data: { ...made, key: SECRET }, message: 'API key created (test).' });
      }
      const revoked = /^\/api\/user\/api-keys\/(\d+)$/.exec(path);
      if (revoked && method === 'DELETE') {
        keys = keys.filter((k) => k.id !== Number(revoked[1]));
        return Response.json({ data: null, message: 'Revoked (test).' });
      }
      return Response.json({ code: 'NOT_FOUND', message: path }, { status: 404 });
    }),
  );
});

function show() {
  render(
    <QueryClientProvider client={createQueryClient()}>
      <App>
        <ApiKeysCard />
      </App>
    </QueryClientProvider>,
  );
}

const posted = () => calls.filter((c) => c.method === 'POST').map((c) => c.body);

async function openForm(name: string) {
  fireEvent.click(await screen.findByRole('button', { name: /Create key/ }));
  fireEvent.change(await screen.findByTestId('api-key-name-input'), { target: { value: name } });
}

// The form is a lazy chunk with antd's date picker: seconds on a loaded 2-core machine. A budget, not a wait.
describe('API keys on Personal info', { timeout: 30_000 }, () => {
  it('lists a key with its prefix, scopes, addresses, cap in money, last use and calls today, and the limit', async () => {
    show();
    const row = (await screen.findByText('price scraper')).closest('tr') as HTMLElement;
    expect(within(row).getByTestId('api-key-prefix').textContent).toBe('rk_live_ab12…');
    expect(within(row).getByTestId('api-key-scopes').textContent).toBe('ReadBuy');
    expect(within(row).getByText('Never')).toBeTruthy();
    expect(within(row).getByTestId('api-key-allowlist').textContent).toBe('203.0.113.7198.51.100.0/24');
    expect(within(row).getByTestId('api-key-cap').textContent).toBe('$50.00$25.00 spent today');
    expect(within(row).getByTestId('api-key-last-used').textContent).toContain('203.0.113.7');
    expect(within(row).getByTestId('api-key-calls').textContent).toBe('Calls today: 1,234');
    expect(screen.getByTestId('api-keys-count').textContent).toBe('1 of 20 keys in use.');
  });

  it('says so when there is no key', async () => {
    keys = [];
    show();
    expect(await screen.findByText('You have no API key yet.')).toBeTruthy();
    expect(screen.getByTestId('api-keys-count').textContent).toBe('0 of 20 keys in use.');
  });

  it('shows a failed list as an error with Try again, never as "no key", and no Create until it has loaded', async () => {
    listFails = true;
    show();
    expect((await screen.findByTestId('query-error')).textContent).toContain('Your API keys could not be loaded');
    expect(screen.queryByText('You have no API key yet.')).toBeNull();
    expect(screen.getByTestId('api-key-create').hasAttribute('disabled')).toBe(true);
    listFails = false;
    fireEvent.click(screen.getByTestId('query-retry'));
    expect(await screen.findByText('price scraper')).toBeTruthy();
  });

  it('sends a key that buys with its cap in minor units, and shows the secret once', async () => {
    show();
    await screen.findByText('price scraper');
    await openForm('  nightly order  ');
    fireEvent.click(screen.getByTestId('api-key-scope-buy'));
    fireEvent.change(await screen.findByTestId('api-key-cap-input'), { target: { value: '12.5' } });
    fireEvent.change(screen.getByTestId('api-key-allowlist-input'), { target: { value: ' 203.0.113.7 \n\n198.51.100.0/24\n' } });
    fireEvent.click(screen.getByTestId('api-key-create-submit'));
    await waitFor(() => expect(posted()).toEqual([{ name: 'nightly order', scopes: ['read', 'buy'], allowlist: ['203.0.113.7', '198.51.100.0/24'], dailySpendCap: 1250 }]));

    const secret = await screen.findByTestId('api-key-secret-value');
    expect(secret.textContent).toContain(SECRET);
    expect(screen.getByTestId('api-key-secret-curl').textContent).toBe(`curl -H 'Authorization: Bearer ${SECRET}' ${window.location.origin}/api/traffic`);
    fireEvent.click(screen.getByTestId('api-key-secret-done'));
    await waitFor(() => expect(screen.queryByText(SECRET, { exact: false })).toBeNull());
    // Listed by its prefix only, from now on.
    expect(await screen.findByText('rk_live_cd34…')).toBeTruthy();
  });

  it('sends no cap for a key that does not buy, and hides the cap field once buy is unticked', async () => {
    show();
    await screen.findByText('price scraper');
    await openForm('reader');
    const buy = screen.getByTestId('api-key-scope-buy');
    fireEvent.click(buy);
    fireEvent.change(await screen.findByTestId('api-key-cap-input'), { target: { value: '30' } });
    fireEvent.click(buy);
    await waitFor(() => expect(screen.queryByTestId('api-key-cap-input')).toBeNull());
    fireEvent.click(screen.getByTestId('api-key-create-submit'));
    await waitFor(() => expect(posted()).toEqual([{ name: 'reader', scopes: ['read'] }]));
  });

  it('asks for a cap before sending a key that buys', async () => {
    show();
    await screen.findByText('price scraper');
    await openForm('buyer');
    fireEvent.click(screen.getByTestId('api-key-scope-buy'));
    await screen.findByTestId('api-key-cap-input');
    fireEvent.click(screen.getByTestId('api-key-create-submit'));
    expect(await screen.findByText('This field is required.')).toBeTruthy();
    expect(posted()).toEqual([]);
  });

  it('revokes a key after the confirmation, with DELETE, and lists it no more', async () => {
    show();
    const row = (await screen.findByText('price scraper')).closest('tr') as HTMLElement;
    fireEvent.click(within(row).getByTestId('api-key-revoke'));
    fireEvent.click(await screen.findByTestId('api-key-revoke-ok'));
    await waitFor(() => expect(calls.filter((c) => c.method === 'DELETE')).toEqual([{ method: 'DELETE', path: '/api/user/api-keys/1', body: {} }]));
    expect(await screen.findByText('You have no API key yet.')).toBeTruthy();
  });
});

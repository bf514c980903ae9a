import type { ApiKeyDto } from '@resi/contract';
import { QueryClientProvider } from '@tanstack/react-query';
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { App } from 'antd';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { createQueryClient } from '@/lib/query-client';
import { UserApiKeys } from './user-api-keys';

const key: ApiKeyDto = {
  id: 9,
  name: 'nightly sync',
  prefix: 'rk_live_9f8e',
  scopes: ['read', 'proxies'],
  expiresAt: null,
  allowlist: [],
  dailySpendCap: null,
  createdAt: '2026-01-01T00:00:00Z',
  lastUsedAt: null,
  lastUsedIp: null,
  callsToday: 0,
  spentToday: 0,
};

const deleted: { path: string; body: unknown }[] = [];
beforeEach(() => {
  deleted.length = 0;
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: string, init?: RequestInit) => {
      const path = new URL(String(input), 'http://console.test').pathname;
      if (init?.method === 'DELETE') deleted.push({ path, body: JSON.parse(String(init.body)) });
      return Response.json({ data: null, message: 'Revoked (test).' });
    }),
  );
});

function show(keys: ApiKeyDto[]) {
  render(
    <QueryClientProvider client={createQueryClient()}>
      <App>
        <UserApiKeys keys={keys} />
      </App>
    </QueryClientProvider>,
  );
}

describe("A user's API keys in User Management", () => {
  it('lists name, prefix, scopes, last use and calls today, and revokes one with DELETE /api/manage/api-keys/:id', async () => {
    show([key]);
    const row = screen.getByText('nightly sync').closest('tr') as HTMLElement;
    expect(within(row).getByTestId('api-key-prefix').textContent).toBe('rk_live_9f8e…');
    expect(within(row).getByTestId('api-key-scopes').textContent).toBe('ReadProxies');
    expect(within(row).getByText('Never')).toBeTruthy();
    fireEvent.click(within(row).getByTestId('user-api-key-revoke'));
    expect((await screen.findByText('Revoke this user\'s key "nightly sync"?')).textContent).toBeTruthy();
    fireEvent.click(screen.getByTestId('user-api-key-revoke-ok'));
    await waitFor(() => expect(deleted).toEqual([{ path: '/api/manage/api-keys/9', body: {} }]));
  });

  it('says when the user has none', () => {
    show([]);
    expect(screen.getByText('No API keys.')).toBeTruthy();
  });
});

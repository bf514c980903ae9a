import type { ProxyAccountDto } from '@resi/contract';
import { QueryClientProvider } from '@tanstack/react-query';
import { render, screen, waitFor } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createQueryClient } from '@/lib/query-client';
import { formatDateTime } from '@/lib/format';
import { ProxyAccountsCard } from './proxy-accounts-card';

const account = (id: number, patch: Partial<ProxyAccountDto> = {}): ProxyAccountDto => ({
  id,
  username: `shop_${id}`,
  password: 'Secret123',
  status: 'active',
  limitBytes: null,
  usedBytes: 0,
  maxConnections: null,
  remark: null,
  createdAt: '2026-11-01T00:00:00.000Z',
  loginFailures: 0,
  lastLoginFailureAt: null,
  requirePassword: false,
  pauseAtCap: true,
  extractKeyPrefix: null,
  ...patch,
});

const fetchMock = vi.fn<typeof fetch>();
beforeEach(() => {
  fetchMock.mockReset();
  vi.stubGlobal('fetch', fetchMock);
});
afterEach(() => vi.unstubAllGlobals());

describe('ProxyAccountsCard', () => {
  it("shows each account's failed proxy logins and the latest one's time", async () => {
    const last = '2026-11-20T08:30:00.000Z';
    fetchMock.mockImplementation(async () => Response.json({ data: { items: [account(1), account(2, { loginFailures: 12, lastLoginFailureAt: last })] } }));
    render(
      <QueryClientProvider client={createQueryClient()}>
        <MemoryRouter>
          <ProxyAccountsCard />
        </MemoryRouter>
      </QueryClientProvider>,
    );
    await waitFor(() => expect(screen.getByText('shop_2')).toBeTruthy());
    expect([...document.querySelectorAll('thead th')].map((th) => th.textContent)).toContain('Failed logins');
    const failed = screen.getByTestId('account-failed-logins');
    expect(failed.textContent).toBe(`12latest ${formatDateTime(last)}`);
    // The account without failures shows none, not a 0.
    expect(screen.getAllByTestId('account-failed-logins')).toHaveLength(1);
  });
});

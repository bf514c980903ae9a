import type { ProxyAccountDto } from '@resi/contract';
import { QueryClientProvider } from '@tanstack/react-query';
import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { App } from 'antd';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { BYTES_PER_GB } from '@/lib/format';
import { createQueryClient } from '@/lib/query-client';
import { AccountModal, type AccountModalState } from './account-modal';

const capped: ProxyAccountDto = {
  id: 5,
  username: 'shop_5',
  password: 'Secret123',
  status: 'active',
  limitBytes: 10 * BYTES_PER_GB,
  usedBytes: 0,
  maxConnections: null,
  remark: null,
  createdAt: '2026-11-01T00:00:00.000Z',
  loginFailures: 0,
  lastLoginFailureAt: null,
  requirePassword: false,
  pauseAtCap: true,
  extractKeyPrefix: null,
};

const sent: { method: string; path: string; body: unknown }[] = [];
beforeEach(() => {
  sent.length = 0;
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: string, init?: RequestInit) => {
      const path = new URL(String(input), 'http://console.test').pathname;
      sent.push({ method: init?.method ?? 'GET', path, body: init?.body ? JSON.parse(String(init.body)) : undefined });
      return Response.json({ data: capped, message: 'Saved (test).' });
    }),
  );
});
afterEach(() => vi.unstubAllGlobals());

function show(state: AccountModalState) {
  const onClose = vi.fn();
  render(
    <QueryClientProvider client={createQueryClient()}>
      <App>
        <AccountModal state={state} onClose={onClose} />
      </App>
    </QueryClientProvider>,
  );
  return onClose;
}

const pauseSwitch = () => screen.queryByTestId('account-pause-at-cap');

describe('the proxy account form: what happens at the cap', { timeout: 30_000 }, () => {
  it('offers the switch only once a cap is typed, pausing by default, and sends the choice with the cap', async () => {
    const onClose = show('new');
    fireEvent.change(screen.getByTestId('account-username'), { target: { value: 'shop_9' } });
    expect(pauseSwitch()).toBeNull();
    fireEvent.change(screen.getByTestId('account-limit'), { target: { value: '10' } });
    const toggle = await screen.findByTestId('account-pause-at-cap');
    expect(toggle.getAttribute('aria-checked')).toBe('true');
    expect(screen.getByText('At its cap the account is refused until you raise the cap.')).toBeTruthy();
    fireEvent.click(toggle);
    expect(await screen.findByText('The cap only alerts you: the account keeps drawing on your balance past it.')).toBeTruthy();
    fireEvent.click(screen.getByTestId('account-submit'));
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(sent).toEqual([{ method: 'POST', path: '/api/proxy/dynamic', body: expect.objectContaining({ username: 'shop_9', limitBytes: 10 * BYTES_PER_GB, pauseAtCap: false }) as unknown }]);
  });

  it('sends no pauseAtCap for an account without a cap', async () => {
    const onClose = show('new');
    fireEvent.change(screen.getByTestId('account-username'), { target: { value: 'shop_9' } });
    fireEvent.click(screen.getByTestId('account-submit'));
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(sent[0]?.body).not.toHaveProperty('pauseAtCap');
  });

  it("edits a capped account's choice alone with PUT", async () => {
    const onClose = show(capped);
    const toggle = await screen.findByTestId('account-pause-at-cap');
    expect(toggle.getAttribute('aria-checked')).toBe('true');
    fireEvent.click(toggle);
    fireEvent.click(screen.getByTestId('account-submit'));
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(sent).toEqual([{ method: 'PUT', path: '/api/proxy/dynamic/5', body: { pauseAtCap: false } }]);
  });
});

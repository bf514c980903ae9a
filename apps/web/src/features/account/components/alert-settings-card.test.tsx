import { ALERT_DEFAULTS, type AlertSettingsDto } from '@resi/contract';
import { QueryClientProvider } from '@tanstack/react-query';
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { App } from 'antd';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { BYTES_PER_GB } from '@/lib/format';
import { createQueryClient } from '@/lib/query-client';
import { storage } from '@/lib/storage';
import { AlertSettingsCard } from './alert-settings-card';

let saved: AlertSettingsDto;
const posted: unknown[] = [];

beforeEach(() => {
  saved = { balanceBytesLeft: [...ALERT_DEFAULTS.balanceBytesLeft], balancePercentLeft: [], accountCapPercent: [...ALERT_DEFAULTS.accountCapPercent] };
  posted.length = 0;
  storage.setToken('session-token');
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: string, init?: RequestInit) => {
      const path = new URL(String(input), 'http://console.test').pathname;
      if (path === '/api/user/alerts' && init?.method === 'POST') {
        const body = JSON.parse(String(init.body)) as AlertSettingsDto;
        posted.push(body);
        saved = { balanceBytesLeft: [...body.balanceBytesLeft].sort((a, b) => a - b), balancePercentLeft: body.balancePercentLeft, accountCapPercent: body.accountCapPercent };
        return Response.json({ data: saved, message: 'Saved (test).' });
      }
      if (path === '/api/user/alerts') return Response.json({ data: saved });
      return Response.json({ code: 'NOT_FOUND', message: path }, { status: 404 });
    }),
  );
});

function show() {
  render(
    <QueryClientProvider client={createQueryClient()}>
      <App>
        <AlertSettingsCard />
      </App>
    </QueryClientProvider>,
  );
}

const box = (name: string) => screen.getByTestId(`alert-${name}`);
const tags = (name: string) => [...box(name).querySelectorAll('.ant-select-selection-item')].map((el) => el.textContent);

function type(name: string, value: string) {
  const input = within(box(name)).getByRole('combobox');
  fireEvent.change(input, { target: { value } });
  fireEvent.keyDown(input, { key: 'Enter', code: 'Enter', keyCode: 13 });
}

describe('usage alert settings', { timeout: 30_000 }, () => {
  it('shows the saved thresholds (the defaults here) and what the defaults are', async () => {
    show();
    await waitFor(() => expect(tags('balanceGb')).toEqual(['1 GB']));
    expect(tags('balancePercentLeft')).toEqual([]);
    expect(tags('accountCapPercent')).toEqual(['80%', '100%']);
    const card = screen.getByTestId('alert-settings');
    expect(within(card).getByText('Default: 1 GB.')).toBeTruthy();
    expect(within(card).getByText('Default: none.')).toBeTruthy();
    expect(within(card).getByText('Default: 80%, 100%.')).toBeTruthy();
  });

  it('sends the balance thresholds in bytes, the percents as numbers, and an emptied list as []', async () => {
    show();
    await waitFor(() => expect(tags('balanceGb')).toEqual(['1 GB']));
    type('balanceGb', '2.5');
    type('balancePercentLeft', '20');
    for (const remove of box('accountCapPercent').querySelectorAll('.ant-select-selection-item-remove')) fireEvent.click(remove);
    fireEvent.click(screen.getByTestId('alert-save'));
    await waitFor(() => expect(posted).toEqual([{ balanceBytesLeft: [BYTES_PER_GB, 2.5 * BYTES_PER_GB], balancePercentLeft: [20], accountCapPercent: [] }]));
    await waitFor(() => expect(tags('balanceGb')).toEqual(['1 GB', '2.5 GB']));
  });

  it('refuses what the contract refuses, with its message, and sends nothing', async () => {
    show();
    await waitFor(() => expect(tags('balanceGb')).toEqual(['1 GB']));
    type('accountCapPercent', '150');
    fireEvent.click(screen.getByTestId('alert-save'));
    expect(await screen.findByText("A percent of an account's cap must be from 1 to 100.")).toBeTruthy();
    type('balanceGb', 'lots');
    expect(await screen.findByText('A balance threshold must be a whole number of bytes above zero.')).toBeTruthy();
    expect(posted).toEqual([]);
  });

  it('"Restore defaults" puts the defaults back in the form, saved with Save', async () => {
    saved = { balanceBytesLeft: [5 * BYTES_PER_GB], balancePercentLeft: [10], accountCapPercent: [] };
    show();
    await waitFor(() => expect(tags('balanceGb')).toEqual(['5 GB']));
    fireEvent.click(screen.getByTestId('alert-defaults'));
    fireEvent.click(screen.getByTestId('alert-save'));
    await waitFor(() => expect(posted).toEqual([{ balanceBytesLeft: [BYTES_PER_GB], balancePercentLeft: [], accountCapPercent: [80, 100] }]));
  });
});

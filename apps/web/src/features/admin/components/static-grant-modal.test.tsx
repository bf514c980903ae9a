import { QueryClientProvider } from '@tanstack/react-query';
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { App } from 'antd';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createQueryClient } from '@/lib/query-client';
import { StaticGrantModal } from './static-grant-modal';

const name = (text: string) => ({ en: text, 'zh-cn': text, zh: text });
const posted: unknown[] = [];
let grantAnswer: Response;

beforeEach(() => {
  posted.length = 0;
  grantAnswer = Response.json({ data: {}, message: 'Saved (test).' });
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: string, init?: RequestInit) => {
      const path = new URL(String(input), 'http://console.test').pathname;
      if (path === '/api/manage/static-region') return Response.json({ data: { items: [{ id: 3, country: 'SG', city: null, name: name('Singapore'), sort: 0, enabled: true }] } });
      if (path === '/api/manage/business') return Response.json({ data: { items: [{ id: 4, code: 'social', name: name('Social media'), sort: 0, enabled: true }] } });
      if (path === '/api/manage/static-recharge') {
        posted.push(JSON.parse(String(init?.body)));
        return grantAnswer;
      }
      return Response.json({ code: 'NOT_FOUND', message: path }, { status: 404 });
    }),
  );
});
afterEach(() => vi.unstubAllGlobals());

const waitLong = { timeout: 10_000 };

async function pick(testId: string, option: string) {
  fireEvent.mouseDown(within(await screen.findByTestId(testId, {}, waitLong)).getByRole('combobox'));
  fireEvent.click(await screen.findByTitle(option, {}, waitLong));
}

function renderModal(onClose = vi.fn()) {
  render(
    <QueryClientProvider client={createQueryClient()}>
      <App>
        <StaticGrantModal open onClose={onClose} />
      </App>
    </QueryClientProvider>,
  );
  return onClose;
}

// A modal or page with antd selects takes seconds to drive on a loaded 2-core machine: a budget, not a wait.
describe('Grant static IPs', { timeout: 30_000 }, () => {
  it('sends the user, region, line, quantity, days and trimmed note, then closes', async () => {
    const onClose = renderModal();
    fireEvent.mouseDown(within(await screen.findByTestId('recharge-user', {}, waitLong)).getByRole('combobox'));
    fireEvent.change(within(screen.getByTestId('recharge-user')).getByRole('combobox'), { target: { value: '42' } });
    fireEvent.click(await screen.findByTitle('User ID 42', {}, waitLong));
    await pick('grant-region', 'Singapore');
    await pick('grant-business', 'Social media');
    fireEvent.change(screen.getByTestId('grant-quantity'), { target: { value: '3' } });
    fireEvent.change(screen.getByTestId('grant-note'), { target: { value: '  goodwill  ' } });
    fireEvent.click(screen.getByTestId('grant-submit'));
    await waitFor(() => expect(posted).toEqual([{ userId: 42, regionId: 3, businessId: 4, quantity: 3, days: 30, note: 'goodwill' }]), waitLong);
    await waitFor(() => expect(onClose).toHaveBeenCalled(), waitLong);
  });

  it('refuses a quantity above the contract’s limit without asking the server', async () => {
    renderModal();
    fireEvent.change(await screen.findByTestId('grant-quantity', {}, waitLong), { target: { value: '101' } });
    fireEvent.click(screen.getByTestId('grant-submit'));
    await screen.findAllByText((_, el) => el?.classList.contains('ant-form-item-explain-error') === true, {}, waitLong);
    expect(posted).toEqual([]);
  });

  it('keeps the modal open when the server refuses the grant', async () => {
    grantAnswer = Response.json({ code: 'OUT_OF_STOCK', message: 'Not enough free IPs (test).' }, { status: 409 });
    const onClose = renderModal();
    fireEvent.mouseDown(within(await screen.findByTestId('recharge-user', {}, waitLong)).getByRole('combobox'));
    fireEvent.change(within(screen.getByTestId('recharge-user')).getByRole('combobox'), { target: { value: '42' } });
    fireEvent.click(await screen.findByTitle('User ID 42', {}, waitLong));
    await pick('grant-region', 'Singapore');
    await pick('grant-business', 'Social media');
    fireEvent.change(screen.getByTestId('grant-note'), { target: { value: 'goodwill' } });
    fireEvent.click(screen.getByTestId('grant-submit'));
    expect(await screen.findByText('Not enough free IPs (test).', {}, waitLong)).toBeTruthy();
    expect(onClose).not.toHaveBeenCalled();
  });
});

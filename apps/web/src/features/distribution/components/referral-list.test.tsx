import type { DistributionUserDto } from '@resi/contract';
import { QueryClientProvider } from '@tanstack/react-query';
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { App } from 'antd';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createQueryClient } from '@/lib/query-client';
import { ReferralList } from './referral-list';

const referral: DistributionUserDto = {
  id: 21,
  email: 'referred@example.com',
  account: 'referred_one',
  remark: null,
  status: 'active',
  disabledBy: null,
  createdAt: '2026-01-01T00:00:00Z',
  distributorId: 5,
  distributorEmail: 'dist@example.com',
  paidOrders: 2,
  paidAmount: 5000,
  commission: 500,
  currency: 'USD',
};

const asked: URL[] = [];
const posted: unknown[] = [];
let saveAnswer: () => Response;

beforeEach(() => {
  asked.length = 0;
  posted.length = 0;
  saveAnswer = () => Response.json({ data: { id: 22 }, message: 'Saved (test).' });
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: string, init?: RequestInit) => {
      const url = new URL(String(input), 'http://console.test');
      asked.push(url);
      if (url.pathname === '/api/distribution/user') return Response.json({ data: { items: [referral], total: 1, page: 1, pageSize: 20 } });
      if (url.pathname === '/api/distribution/saveuser') {
        posted.push(JSON.parse(String(init?.body)));
        return saveAnswer();
      }
      return Response.json({ code: 'NOT_FOUND', message: url.pathname }, { status: 404 });
    }),
  );
});
afterEach(() => vi.unstubAllGlobals());

const waitLong = { timeout: 10_000 };

function renderList(isAdmin = false, canCreate = !isAdmin) {
  render(
    <QueryClientProvider client={createQueryClient()}>
      <App>
        <ReferralList isAdmin={isAdmin} canCreate={canCreate} />
      </App>
    </QueryClientProvider>,
  );
}

// A list with antd forms and a modal takes seconds to drive on a loaded 2-core machine: a budget, not a wait.
describe('Referred users', { timeout: 30_000 }, () => {
  it('shows a referral with its account, paid amount and commission in the shop currency; a distributor sees no distributor column', async () => {
    renderList();
    const row = await screen.findByTestId('referral-row-referred@example.com', {}, waitLong);
    expect(row.textContent).toContain('referred_one');
    expect(row.textContent).toContain('$50.00');
    expect(row.textContent).toContain('$5.00');
    expect(row.textContent).not.toContain('dist@example.com');
    expect(screen.queryByTestId('referral-filter-distributor')).toBeNull();
  });

  it('shows an admin whose referral it is, and offers the distributor filter', async () => {
    renderList(true);
    expect((await screen.findByTestId('referral-row-referred@example.com', {}, waitLong)).textContent).toContain('dist@example.com');
    expect(screen.getByTestId('referral-filter-distributor')).toBeTruthy();
  });

  it('offers "create customer" only to a distributor, not to an admin who is none', async () => {
    renderList(true, false);
    await screen.findByTestId('referral-row-referred@example.com', {}, waitLong);
    expect(screen.queryByTestId('referral-create')).toBeNull();
  });

  it('asks the server again with the filters on Search', async () => {
    renderList();
    await screen.findByTestId('referral-row-referred@example.com', {}, waitLong);
    fireEvent.change(screen.getByTestId('referral-filter-email'), { target: { value: ' referred ' } });
    fireEvent.click(screen.getByTestId('referral-search'));
    await waitFor(() => expect(asked.some((u) => u.searchParams.get('email') === 'referred')).toBe(true), waitLong);
  });

  it('creates a customer with email, password and remark, leaving an empty account out', async () => {
    renderList();
    fireEvent.click(await screen.findByTestId('referral-create', {}, waitLong));
    fireEvent.change(await screen.findByTestId('referral-email', {}, waitLong), { target: { value: 'new@example.com' } });
    fireEvent.change(screen.getByTestId('referral-password'), { target: { value: 'Passw0rdOK' } });
    fireEvent.change(screen.getByTestId('referral-remark'), { target: { value: '  met at the fair ' } });
    fireEvent.click(screen.getByTestId('referral-save'));
    await waitFor(() => expect(posted).toEqual([{ email: 'new@example.com', password: 'Passw0rdOK', remark: 'met at the fair' }]), waitLong);
    await waitFor(() => expect(screen.queryByTestId('referral-email')).toBeNull(), waitLong);
  });

  it('refuses a weak password and a bad account name without asking the server', async () => {
    renderList();
    fireEvent.click(await screen.findByTestId('referral-create', {}, waitLong));
    fireEvent.change(await screen.findByTestId('referral-email', {}, waitLong), { target: { value: 'new@example.com' } });
    fireEvent.change(screen.getByTestId('referral-account'), { target: { value: 'a@b' } });
    fireEvent.change(screen.getByTestId('referral-password'), { target: { value: 'short' } });
    fireEvent.click(screen.getByTestId('referral-save'));
    await waitFor(() => expect(document.querySelectorAll('.ant-form-item-explain-error').length).toBe(2), waitLong);
    expect(posted).toEqual([]);
  });

  it('keeps the form open when the server refuses (the email is taken)', async () => {
    saveAnswer = () => Response.json({ code: 'EMAIL_TAKEN', message: 'This email is already registered (test).' }, { status: 409 });
    renderList();
    fireEvent.click(await screen.findByTestId('referral-create', {}, waitLong));
    fireEvent.change(await screen.findByTestId('referral-email', {}, waitLong), { target: { value: 'taken@example.com' } });
    fireEvent.change(screen.getByTestId('referral-password'), { target: { value: 'Passw0rdOK' } });
    fireEvent.click(screen.getByTestId('referral-save'));
    await waitFor(() => expect(posted).toHaveLength(1), waitLong);
    await screen.findByText('This email is already registered (test).', {}, waitLong);
    expect(screen.getByTestId('referral-email')).toBeTruthy();
  });

  it("shows a referral the operator disabled as such, and a distributor's form does not offer to enable it", async () => {
    vi.mocked(fetch).mockImplementation(async (input) => {
      const url = new URL(String(input), 'http://console.test');
      asked.push(url);
      return Response.json({ data: { items: [{ ...referral, status: 'disabled', disabledBy: 'admin' }], total: 1, page: 1, pageSize: 20 } });
    });
    renderList();
    const row = await screen.findByTestId('referral-row-referred@example.com', {}, waitLong);
    expect(within(row).getByTestId('referral-status-tag').textContent).toBe('Disabled by the operator');
    fireEvent.click(within(row).getByTestId('referral-edit'));
    await screen.findByTestId('referral-remark', {}, waitLong);
    expect(screen.getByText('The operator disabled this user; only an admin can enable them again.')).toBeTruthy();
    expect((within(screen.getByTestId('referral-status')).getByRole('combobox') as HTMLInputElement).disabled).toBe(true);
  });

  it('edits only the remark and status of a row', async () => {
    renderList();
    const row = await screen.findByTestId('referral-row-referred@example.com', {}, waitLong);
    fireEvent.click(within(row).getByTestId('referral-edit'));
    fireEvent.change(await screen.findByTestId('referral-remark', {}, waitLong), { target: { value: 'VIP' } });
    expect(screen.queryByTestId('referral-email')).toBeNull();
    fireEvent.mouseDown(within(screen.getByTestId('referral-status')).getByRole('combobox'));
    fireEvent.click(await screen.findByTitle('Disabled', {}, waitLong));
    fireEvent.click(screen.getByTestId('referral-save'));
    await waitFor(() => expect(posted).toEqual([{ id: 21, remark: 'VIP', status: 'disabled' }]), waitLong);
  });
});

import type { DistributionInfo, PayoffDto, UserDto } from '@resi/contract';
import { QueryClientProvider } from '@tanstack/react-query';
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { App } from 'antd';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createQueryClient } from '@/lib/query-client';
import { storage } from '@/lib/storage';
import { canRequestPayoff } from '../components/payoff-form';
import { channelUrl } from '../components/channel-link';
import { toSettingsBody } from '../components/distribution-settings-form';
import DistributionManagePage from './distribution-manage-page';

const page = <T,>(items: T[]) => ({ items, total: items.length, page: 1, pageSize: 20 });
const LINK = 'https://console.test/manage/user/register?invite=INV9';

const distributor: UserDto = { id: 9, email: 'dist@example.com', account: null, role: 'customer', isDistributor: true, status: 'active', inviteCode: 'INV9', lang: 'en', createdAt: '2026-01-01T00:00:00Z', lastLoginAt: null };
const admin: UserDto = { ...distributor, id: 1, email: 'admin@example.com', role: 'admin', inviteCode: 'INV1' };

const baseInfo: DistributionInfo = {
  inviteCode: 'INV9',
  inviteLink: LINK,
  rate: 12.5,
  referrals: 4,
  payingReferrals: 2,
  currency: 'USD',
  pending: 300,
  available: 2500,
  owed: 0,
  held: 700,
  paid: 1000,
  minPayout: 1000,
  payoutMethods: ['usdt-trc20', 'bank'],
};
const request: PayoffDto = {
  id: 31,
  distributorId: 9,
  distributorEmail: 'dist@example.com',
  amount: 1500,
  currency: 'USD',
  method: 'bank',
  account: 'IBAN DE00 1234',
  status: 'pending',
  note: null,
  txRef: null,
  decidedBy: null,
  createdAt: '2026-01-02T00:00:00Z',
  updatedAt: '2026-01-02T00:00:00Z',
  approvedAt: null,
  paidAt: null,
  rejectedAt: null,
  earned: 3000,
  earnedFromCreatedAccounts: 1200,
};
const rejected: PayoffDto = { ...request, id: 30, status: 'rejected', note: 'Wrong account', rejectedAt: '2026-01-01T12:00:00Z' };

interface Call {
  method: string;
  path: string;
  query: Record<string, string>;
  body: unknown;
}

/** The server as the page sees it; `answers` can be replaced per test (`METHOD /api/path` → Response). */
function stubServer(info: DistributionInfo) {
  const calls: Call[] = [];
  const answers: Record<string, () => Response> = {
    'GET /api/distribution/info': () => Response.json({ data: info }),
    'GET /api/distribution/invite': () => Response.json({ data: { inviteCode: 'INV9', inviteLink: LINK, links: [{ channelKey: 'qd', channelValue: 'forum', url: `${LINK}&qd=forum`, visits: 7, registrations: 2 }] } }),
    'GET /api/distribution/commission': () =>
      Response.json({
        data: page([
          { id: 2, distributorId: 9, orderNo: 'D2', buyerEmail: 'b@example.com', orderAmount: 2500, rate: 10, amount: -250, currency: 'USD', state: 'reversed', createdAt: '2026-01-09T00:00:00Z', availableAt: '2026-01-09T00:00:00Z', voidedAt: null },
          { id: 1, distributorId: 9, orderNo: 'D2', buyerEmail: 'b@example.com', orderAmount: 2500, rate: 10, amount: 250, currency: 'USD', state: 'available', createdAt: '2026-01-01T00:00:00Z', availableAt: '2026-01-08T00:00:00Z', voidedAt: null },
        ]),
      }),
    'GET /api/distribution/payoff': () => Response.json({ data: page([request, rejected]) }),
    'POST /api/distribution/payoff': () => Response.json({ data: request, message: 'Requested (test).' }),
    'POST /api/distribution/status': () => Response.json({ data: { ...request, status: 'approved' }, message: 'Saved (test).' }),
    'GET /api/manage/distribution-settings': () => Response.json({ data: { defaultRate: 10, holdDays: 7, minPayout: 1000, payoutMethods: ['usdt-trc20'], commissionOnCreatedAccounts: false } }),
    'POST /api/manage/distribution-settings': () => Response.json({ data: calls.at(-1)?.body, message: 'Saved (test).' }),
  };
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: string, init?: RequestInit) => {
      const url = new URL(String(input), 'http://console.test');
      const method = init?.method ?? 'GET';
      const body = typeof init?.body === 'string' ? (JSON.parse(init.body) as unknown) : undefined;
      calls.push({ method, path: url.pathname, query: Object.fromEntries(url.searchParams), body });
      const answer = answers[`${method} ${url.pathname}`];
      return answer ? answer() : Response.json({ code: 'NOT_FOUND', message: `no ${method} ${url.pathname}` }, { status: 404 });
    }),
  );
  return { calls, answers };
}

function renderPage(user: UserDto, path = '/distribution/manage') {
  storage.setUserInfo(user);
  const router = createMemoryRouter([{ path: '/distribution/manage', element: <DistributionManagePage /> }], { initialEntries: [path] });
  return render(
    <QueryClientProvider client={createQueryClient()}>
      <App>
        <RouterProvider router={router} />
      </App>
    </QueryClientProvider>,
  );
}

const waitLong = { timeout: 10_000 };
const posts = (calls: Call[], path: string) => calls.filter((c) => c.method === 'POST' && c.path === path).map((c) => c.body);

afterEach(() => vi.unstubAllGlobals());

describe('distribution helpers', () => {
  it('a channel link is the invite link with the channel parameter, its value encoded', () => {
    expect(channelUrl(LINK, 'hz', ' spring sale ')).toBe(`${LINK}&hz=spring%20sale`);
  });
  it('a payoff can be asked for only from the minimum, and never of nothing', () => {
    expect(canRequestPayoff({ available: 1000, minPayout: 1000 })).toBe(true);
    expect(canRequestPayoff({ available: 999, minPayout: 1000 })).toBe(false);
    expect(canRequestPayoff({ available: 0, minPayout: 0 })).toBe(false);
  });
  it('the settings form sends the minimum payoff in minor units', () => {
    expect(toSettingsBody({ defaultRate: 12.5, holdDays: 3, minPayout: 25.5, payoutMethods: ['bank'], commissionOnCreatedAccounts: true }, 'USD')).toEqual({
      defaultRate: 12.5,
      holdDays: 3,
      minPayout: 2550,
      payoutMethods: ['bank'],
      commissionOnCreatedAccounts: true,
    });
  });
});

// A page with antd forms and selects takes seconds to drive on a loaded 2-core machine: a budget, not a wait.
describe('Distribution Management page', { timeout: 30_000 }, () => {
  let server: ReturnType<typeof stubServer>;
  beforeEach(() => {
    server = stubServer(baseInfo);
  });

  it('a distributor sees their figures, links, ledger (a reversal negative) and requests with the reason; no admin tabs', async () => {
    renderPage(distributor);
    expect((await screen.findByTestId('distribution-available', {}, waitLong)).textContent).toBe('$25.00');
    expect(screen.getByTestId('distribution-pending').textContent).toBe('$3.00');
    expect(screen.getByTestId('distribution-held').textContent).toBe('$7.00');
    expect(screen.getByTestId('distribution-paid').textContent).toBe('$10.00');
    expect(screen.getByTestId('distribution-rate').textContent).toBe('12.5%');
    expect(screen.getByTestId('distribution-referrals').textContent).toBe('2 / 4');
    expect(screen.queryByTestId('distribution-owed')).toBeNull();
    expect((await screen.findByTestId('distribution-invite-link', {}, waitLong)).textContent).toBe(LINK);
    expect(screen.getByTestId('distribution-channel-links').textContent).toContain('qd=forum');
    const ledger = await screen.findByTestId('distribution-ledger', {}, waitLong);
    const rows = await within(ledger).findAllByText('b@example.com', {}, waitLong);
    expect(rows[0]!.closest('tr')!.textContent).toContain('-$2.50');
    expect(rows[0]!.closest('tr')!.textContent).toContain('Reversed');
    const mine = await screen.findByTestId('my-payoffs', {}, waitLong);
    expect((await within(mine).findByText('Wrong account', {}, waitLong)).closest('tr')!.textContent).toContain('Rejected');
    expect(server.calls.find((c) => c.path === '/api/distribution/payoff')?.query).toMatchObject({ distributorId: '9' });
    expect(screen.queryByTestId('distribution-tabs')).toBeNull();
  });

  it('shows what is owed, explained, only when there is some', async () => {
    server = stubServer({ ...baseInfo, available: 0, owed: 150 });
    renderPage(distributor);
    expect((await screen.findByTestId('distribution-owed', {}, waitLong)).textContent).toBe('Owed: $1.50');
  });

  it('makes a channel link from the invite link', async () => {
    renderPage(distributor);
    // The form is there, disabled, until the invite link has come.
    await screen.findByTestId('distribution-invite-link', {}, waitLong);
    fireEvent.change(screen.getByTestId('channel-link-value'), { target: { value: 'spring' } });
    fireEvent.click(screen.getByTestId('channel-link-make'));
    expect((await screen.findByTestId('channel-link-url', {}, waitLong)).textContent).toBe(`${LINK}&hz=spring`);
    expect(screen.getByTestId('channel-link-url-qr-button')).toBeTruthy();
  });

  it('requests a payoff in minor units, refuses more than available before asking, and keeps the server’s refusal on screen', async () => {
    renderPage(distributor);
    fireEvent.change(await screen.findByTestId('payoff-account', {}, waitLong), { target: { value: ' IBAN DE00 1234 ' } });
    fireEvent.change(screen.getByTestId('payoff-amount'), { target: { value: '30' } });
    fireEvent.click(screen.getByTestId('payoff-submit'));
    expect(await screen.findByText('At most $25.00 is available.', {}, waitLong)).toBeTruthy();
    expect(posts(server.calls, '/api/distribution/payoff')).toEqual([]);

    fireEvent.change(screen.getByTestId('payoff-amount'), { target: { value: '12.5' } });
    fireEvent.click(screen.getByTestId('payoff-submit'));
    await waitFor(() => expect(posts(server.calls, '/api/distribution/payoff')).toEqual([{ method: 'usdt-trc20', account: 'IBAN DE00 1234', amount: 1250 }]), waitLong);

    server.answers['POST /api/distribution/payoff'] = () => Response.json({ code: 'PAYOFF_OPEN', message: 'Ya hay una solicitud abierta (test).' }, { status: 409 });
    fireEvent.change(screen.getByTestId('payoff-account'), { target: { value: 'TXYZ' } });
    fireEvent.change(screen.getByTestId('payoff-amount'), { target: { value: '11' } });
    fireEvent.click(screen.getByTestId('payoff-submit'));
    expect((await screen.findByTestId('payoff-error', {}, waitLong)).textContent).toContain('Ya hay una solicitud abierta (test).');
  });

  it('below the minimum the form is closed and says why', async () => {
    server = stubServer({ ...baseInfo, available: 900 });
    renderPage(distributor);
    expect((await screen.findByTestId('payoff-closed', {}, waitLong)).textContent).toContain('once at least $10.00 is available');
    expect((screen.getByTestId('payoff-submit') as HTMLButtonElement).disabled).toBe(true);
  });

  it('an admin approves after confirming, and a rejection needs its reason', async () => {
    renderPage(admin, '/distribution/manage?tab=requests');
    const list = await screen.findByTestId('payoff-requests', {}, waitLong);
    await within(list).findAllByText('IBAN DE00 1234', {}, waitLong);
    expect(server.calls.find((c) => c.path === '/api/distribution/payoff')?.query).toMatchObject({ status: 'pending' });
    // What the distributor earned, and the part from accounts they created themselves.
    expect(within(list).getAllByTestId('payoff-created-share')[0]!.textContent).toBe('$12.00 from accounts they created');
    expect(within(list).getAllByText('$30.00').length).toBeGreaterThan(0);

    fireEvent.click(within(list).getAllByTestId('payoff-approve')[0]!);
    fireEvent.click(await screen.findByTestId('payoff-approve-confirm', {}, waitLong));
    await waitFor(() => expect(posts(server.calls, '/api/distribution/status')).toEqual([{ id: 31, status: 'approved' }]), waitLong);

    fireEvent.click(within(list).getAllByTestId('payoff-reject')[0]!);
    await screen.findByTestId('payoff-reject-modal', {}, waitLong);
    fireEvent.click(screen.getByTestId('payoff-reject-confirm'));
    expect(await screen.findByText('Enter the reason for the rejection.', {}, waitLong)).toBeTruthy();
    expect(posts(server.calls, '/api/distribution/status')).toHaveLength(1);
    fireEvent.change(screen.getByTestId('payoff-reject-reason'), { target: { value: '  Wrong account  ' } });
    fireEvent.click(screen.getByTestId('payoff-reject-confirm'));
    await waitFor(() => expect(posts(server.calls, '/api/distribution/status')[1]).toEqual({ id: 31, status: 'rejected', note: 'Wrong account' }), waitLong);
  });

  it('an admin marks an approved request paid with its transfer reference', async () => {
    server.answers['GET /api/distribution/payoff'] = () => Response.json({ data: page([{ ...request, status: 'approved' }]) });
    renderPage(admin, '/distribution/manage?tab=requests');
    const list = await screen.findByTestId('payoff-requests', {}, waitLong);
    fireEvent.click(await within(list).findByTestId('payoff-pay', {}, waitLong));
    fireEvent.change(await screen.findByTestId('payoff-paid-txref', {}, waitLong), { target: { value: ' 0xabc ' } });
    fireEvent.click(screen.getByTestId('payoff-paid-confirm'));
    await waitFor(() => expect(posts(server.calls, '/api/distribution/status')).toEqual([{ id: 31, status: 'paid', txRef: '0xabc' }]), waitLong);
    expect(within(list).queryByTestId('payoff-approve')).toBeNull();
  });

  it('an admin saves the settings with the minimum payoff in minor units, and lets accounts distributors create earn', async () => {
    renderPage(admin, '/distribution/manage?tab=settings');
    const form = await screen.findByTestId('distribution-settings-form', {}, waitLong);
    fireEvent.change(within(form).getByTestId('settings-min-payout'), { target: { value: '25.5' } });
    fireEvent.change(within(form).getByTestId('settings-hold-days'), { target: { value: '3' } });
    expect(within(form).getByText('Commission on accounts distributors create')).toBeTruthy();
    fireEvent.click(within(form).getByTestId('settings-created-accounts'));
    fireEvent.click(within(form).getByTestId('settings-save'));
    await waitFor(
      () =>
        expect(posts(server.calls, '/api/manage/distribution-settings')).toEqual([
          { defaultRate: 10, holdDays: 3, minPayout: 2550, payoutMethods: ['usdt-trc20'], commissionOnCreatedAccounts: true },
        ]),
      waitLong,
    );
  });
});

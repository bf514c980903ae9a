import type { UsageRecordDto, UsageRecordPage } from '@resi/contract';
import { QueryClientProvider } from '@tanstack/react-query';
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import dayjs from 'dayjs';
import { MemoryRouter } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { downloader } from '@/lib/download';
import { createQueryClient } from '@/lib/query-client';
import UsageRecordPageView from './usage-record-page';

const MB = 1024 ** 2;
const today = dayjs().format('YYYY-MM-DD');
const weekAgo = dayjs().subtract(6, 'day').format('YYYY-MM-DD');

const record = (over: Partial<UsageRecordDto> = {}): UsageRecordDto => ({
  bucket: '2026-11-22',
  accountId: 1,
  username: 'scraper_one',
  accountDeleted: false,
  staticIp: null,
  country: 'US',
  bytesUp: 1 * MB,
  bytesDown: 3 * MB,
  ...over,
});

const fetchMock = vi.fn<typeof fetch>();
beforeEach(() => {
  fetchMock.mockReset();
  vi.stubGlobal('fetch', fetchMock);
});
afterEach(() => vi.unstubAllGlobals());

/** The API behind the page: accounts, the rotating pool's regions, and `usage` answering each record request. */
function serve(usage: (url: URL) => Response | Partial<UsageRecordPage>) {
  fetchMock.mockImplementation(async (input) => {
    const url = new URL(String(input), 'http://console.test');
    if (url.pathname === '/api/proxy/dynamic') {
      return Response.json({ data: { items: [account(1, 'scraper_one'), account(2, 'crawler_two')] } });
    }
    if (url.pathname === '/api/region') {
      return Response.json({ data: { items: [region('US'), region('DE'), region('US', 'ca')] } });
    }
    if (url.pathname === '/api/record/usage/export') return new Response('\uFEFFTime (UTC)\r\n', { headers: { 'content-type': 'text/csv' } });
    const answer = usage(url);
    if (answer instanceof Response) return answer;
    const page = Number(url.searchParams.get('page'));
    const pageSize = Number(url.searchParams.get('pageSize'));
    return Response.json({ data: { items: [], total: 0, totals: { bytesUp: 0, bytesDown: 0 }, page, pageSize, ...answer } });
  });
}

const account = (id: number, username: string) => ({ id, username, password: 'Secret123', status: 'active', limitBytes: null, usedBytes: 0, remark: null, createdAt: '2026-11-01T00:00:00.000Z', loginFailures: 0, lastLoginFailureAt: null });
const region = (country: string, state: string | null = null) => ({ id: Math.random(), country, state, city: null, name: { en: country, 'zh-cn': country, zh: country }, poolSize: 10, sort: 0, enabled: true });

function renderPage() {
  render(
    <QueryClientProvider client={createQueryClient()}>
      <MemoryRouter>
        <UsageRecordPageView />
      </MemoryRouter>
    </QueryClientProvider>,
  );
  return screen.getByTestId('usage-record');
}

const recordRequests = () =>
  fetchMock.mock.calls.map(([input]) => new URL(String(input), 'http://console.test')).filter((u) => u.pathname === '/api/record/usage');
const lastQuery = () => Object.fromEntries(recordRequests().at(-1)!.searchParams);
const bodyRows = (page: HTMLElement) => [...page.querySelectorAll('tbody tr.ant-table-row')] as HTMLElement[];

/** Opens an antd Select by its test id and picks the option with this label. */
async function pick(testId: string, label: string) {
  fireEvent.mouseDown(within(screen.getByTestId(testId)).getByRole('combobox'));
  fireEvent.click(await screen.findByTitle(label));
}

describe('UsageRecordPage', () => {
  it('shows the last 7 days by day: each row with its time, account, country and bytes, and the totals of all rows', async () => {
    serve(() => ({
      items: [
        record(),
        record({ accountId: 2, username: 'crawler_two', accountDeleted: true, country: null, bytesUp: 512, bytesDown: 512 }),
        record({ accountId: 3, username: 'sk2j4h6g8f', staticIp: '203.0.113.7', bytesUp: 256, bytesDown: 768 }),
      ],
      total: 3,
      totals: { bytesUp: 10 * MB, bytesDown: 30 * MB },
    }));
    const page = renderPage();
    await waitFor(() => expect(bodyRows(page)).toHaveLength(3));

    expect(lastQuery()).toEqual({ granularity: 'day', from: weekAgo, to: today, page: '1', pageSize: '20' });
    expect([...page.querySelectorAll('thead th')].map((th) => th.textContent)).toEqual(['Time', 'Proxy account', 'Country', 'Upload', 'Download', 'Total']);
    const [first, second, third] = bodyRows(page).map((r) => [...r.querySelectorAll('td')].map((td) => td.textContent));
    expect(first).toEqual(['Nov 22, 2026', 'scraper_one', 'United States', '1 MB', '3 MB', '4 MB']);
    expect(second).toEqual(['Nov 22, 2026', 'crawler_twoDeleted', 'Any country', '512 B', '512 B', '1 KB']);
    // A static IP's traffic is tagged and named by its IP, not by its login's generated name.
    expect(third).toEqual(['Nov 22, 2026', 'Static IP203.0.113.7', 'United States', '256 B', '768 B', '1 KB']);
    expect(screen.getByTestId('usage-record-total-up').textContent).toContain('10 MB');
    expect(screen.getByTestId('usage-record-total-down').textContent).toContain('30 MB');
    expect(screen.getByTestId('usage-record-total-total').textContent).toContain('40 MB');
    expect(screen.getByText('3 in total')).toBeTruthy();
  });

  it('asks the server for the chosen granularity, account and country, from the first page', async () => {
    serve(() => ({ items: [record()], total: 45 }));
    const page = renderPage();
    await waitFor(() => expect(bodyRows(page)).toHaveLength(1));
    fireEvent.click(page.querySelector('.ant-pagination-item-2')!);
    await waitFor(() => expect(lastQuery().page).toBe('2'));

    fireEvent.click(screen.getByText('By hour'));
    await waitFor(() => expect(lastQuery()).toMatchObject({ granularity: 'hour', page: '1' }));

    await pick('usage-record-account', 'crawler_two');
    await waitFor(() => expect(lastQuery().accountId).toBe('2'));

    // The pool's countries, each once.
    fireEvent.mouseDown(within(screen.getByTestId('usage-record-country')).getByRole('combobox'));
    expect((await screen.findAllByTitle(/\((US|DE)\)$/)).map((o) => o.getAttribute('title'))).toEqual(['Germany (DE)', 'United States (US)']);
    fireEvent.click(screen.getByTitle('Germany (DE)'));
    await waitFor(() => expect(lastQuery()).toEqual({ granularity: 'hour', from: weekAgo, to: today, accountId: '2', country: 'DE', page: '1', pageSize: '20' }));
  });

  it('pages through the rows on the server', async () => {
    serve((url) => ({ items: url.searchParams.get('page') === '1' ? Array.from({ length: 20 }, (_v, i) => record({ bucket: `2026-11-${String(i + 1).padStart(2, '0')}` })) : [record({ bucket: '2026-10-31' })], total: 21 }));
    const page = renderPage();
    await waitFor(() => expect(bodyRows(page)).toHaveLength(20));
    fireEvent.click(page.querySelector('.ant-pagination-item-2')!);
    await waitFor(() => expect(bodyRows(page)).toHaveLength(1));
    expect(lastQuery()).toMatchObject({ page: '2', pageSize: '20' });
    expect(bodyRows(page)[0]!.textContent).toContain('Oct 31, 2026');
  });

  it('downloads the CSV of the same filters with the bearer header, not a token in the URL', async () => {
    window.sessionStorage.setItem('token', 'session-token');
    const createUrl = vi.spyOn(downloader, 'createUrl').mockReturnValue('blob:usage');
    vi.spyOn(downloader, 'revokeUrl').mockImplementation(() => undefined);
    serve(() => ({ items: [record()], total: 1 }));
    const page = renderPage();
    await waitFor(() => expect(bodyRows(page)).toHaveLength(1));
    await pick('usage-record-account', 'scraper_one');
    await waitFor(() => expect(lastQuery().accountId).toBe('1'));

    fireEvent.click(screen.getByTestId('usage-record-export'));
    await waitFor(() => expect(createUrl).toHaveBeenCalledTimes(1));
    const [input, init] = fetchMock.mock.calls.find(([i]) => String(i).includes('/record/usage/export'))!;
    const url = new URL(String(input), 'http://console.test');
    expect(Object.fromEntries(url.searchParams)).toEqual({ granularity: 'day', from: weekAgo, to: today, accountId: '1' });
    expect(new Headers(init?.headers).get('Authorization')).toBe('Bearer session-token');
  });

  it('says so when the period has no traffic, and offers no empty download', async () => {
    serve(() => ({}));
    renderPage();
    expect(await screen.findByText('No traffic in this period')).toBeTruthy();
    expect(screen.getByTestId('usage-record-export').hasAttribute('disabled')).toBe(true);
  });

  it('shows the server’s error and tries again on request', async () => {
    let fail = true;
    serve(() => (fail ? Response.json({ code: 'VALIDATION_FAILED', message: 'Choose a period of at most 90 days.' }, { status: 400 }) : { items: [record()], total: 1 }));
    const page = renderPage();
    const error = await screen.findByTestId('usage-record-error');
    expect(error.textContent).toContain('The usage record could not be loaded.');
    expect(error.textContent).toContain('Choose a period of at most 90 days.');
    fail = false;
    fireEvent.click(within(error).getByText('Try again'));
    await waitFor(() => expect(bodyRows(page)).toHaveLength(1));
    expect(screen.queryByTestId('usage-record-error')).toBeNull();
  });
});

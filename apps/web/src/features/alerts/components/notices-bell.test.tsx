import type { NoticeDto } from '@resi/contract';
import { QueryClientProvider } from '@tanstack/react-query';
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { App } from 'antd';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { BYTES_PER_GB, formatDateTime } from '@/lib/format';
import { createQueryClient } from '@/lib/query-client';
import { storage } from '@/lib/storage';
import { NoticesBell } from './notices-bell';

const base = { balanceBytes: null, accountId: null, accountUsername: null, usedBytes: null, limitBytes: null, readAt: null };
const NOTICES: NoticeDto[] = [
  { ...base, id: 4, kind: 'account.cap', threshold: 80, accountId: 3, accountUsername: 'scraper_one', usedBytes: 8 * BYTES_PER_GB, limitBytes: 10 * BYTES_PER_GB, createdAt: '2026-01-04T10:00:00Z' },
  { ...base, id: 3, kind: 'balance.empty', threshold: 0, balanceBytes: 0, createdAt: '2026-01-03T10:00:00Z' },
  { ...base, id: 2, kind: 'balance.percentLeft', threshold: 20, balanceBytes: 2 * BYTES_PER_GB, createdAt: '2026-01-02T10:00:00Z', readAt: '2026-01-02T11:00:00Z' },
  { ...base, id: 1, kind: 'balance.bytesLeft', threshold: BYTES_PER_GB, balanceBytes: 0.5 * BYTES_PER_GB, createdAt: '2026-01-01T10:00:00Z' },
];

let notices: NoticeDto[];
let listFails: boolean;
const reads: string[] = [];

beforeEach(() => {
  notices = NOTICES.map((n) => ({ ...n }));
  listFails = false;
  reads.length = 0;
  storage.setToken('session-token');
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: string, init?: RequestInit) => {
      const path = new URL(String(input), 'http://console.test').pathname;
      if (path === '/api/user/notices' && listFails) return Response.json({ code: 'INTERNAL', message: 'Server error (test).' }, { status: 500 });
      if (path === '/api/user/notices') return Response.json({ data: { items: notices, unread: notices.filter((n) => n.readAt === null).length } });
      const read = /^\/api\/user\/notices\/(\d+)\/read$/.exec(path);
      if (read && init?.method === 'POST') {
        reads.push(`${path} ${String(init.body)}`);
        notices = notices.map((n) => (n.id === Number(read[1]) ? { ...n, readAt: '2026-01-05T00:00:00Z' } : n));
        return Response.json({ data: null });
      }
      return Response.json({ code: 'NOT_FOUND', message: path }, { status: 404 });
    }),
  );
});

function show() {
  render(
    <QueryClientProvider client={createQueryClient()}>
      <App>
        <NoticesBell />
      </App>
    </QueryClientProvider>,
  );
}

async function openList() {
  await waitFor(() => expect(screen.getByTestId('notices-unread').textContent).toBe('3'));
  fireEvent.click(screen.getByTestId('notices-bell'));
  return screen.findByTestId('notices-list');
}

const texts = () => screen.getAllByTestId('notice-text').map((el) => el.textContent);

// The drawer is a lazy chunk: seconds on a loaded 2-core machine. A budget, not a wait.
describe('the notices bell', { timeout: 30_000 }, () => {
  it('shows the unread count, and lists every kind of notice in words, newest first, unread ones marked', async () => {
    show();
    expect(screen.getByTestId('notices-bell').getAttribute('aria-label')).toBe('Notices');
    await openList();
    expect(screen.getByTestId('notices-bell').getAttribute('aria-label')).toBe('Notices: 3 unread');
    expect(texts()).toEqual([
      'Proxy account scraper_one has used 80% of its cap (8 GB of 10 GB).',
      'Your traffic balance is used up: proxies that draw on it are refused until you top up.',
      '2 GB left of your traffic balance: 20% or less of your last purchase.',
      '512 MB left of your traffic balance: at or below your 1 GB alert.',
    ]);
    const items = screen.getAllByTestId('notice');
    expect(items.map((item) => item.getAttribute('data-unread'))).toEqual(['true', 'true', 'false', 'true']);
    expect(within(items[0]!).getByText(formatDateTime('2026-01-04T10:00:00Z')!)).toBeTruthy();
    expect(within(items[2]!).queryByTestId('notice-read')).toBeNull();
  });

  it('marks one notice read with POST …/read and {}, and the count follows', async () => {
    show();
    await openList();
    fireEvent.click(within(screen.getAllByTestId('notice')[1]!).getByTestId('notice-read'));
    await waitFor(() => expect(screen.getByTestId('notices-unread').textContent).toBe('2'));
    expect(reads).toEqual(['/api/user/notices/3/read {}']);
    expect(screen.getAllByTestId('notice').map((item) => item.getAttribute('data-unread'))).toEqual(['true', 'false', 'false', 'true']);
  });

  it('"Mark all read" marks each unread notice, and nothing is left unread', async () => {
    show();
    await openList();
    fireEvent.click(screen.getByTestId('notices-read-all'));
    await waitFor(() => expect(screen.queryByTestId('notices-read-all')).toBeNull());
    expect(reads.sort()).toEqual(['/api/user/notices/1/read {}', '/api/user/notices/3/read {}', '/api/user/notices/4/read {}']);
    // The badge zooms its last number out; the button's name says at once that nothing is unread.
    expect(screen.getByTestId('notices-bell').getAttribute('aria-label')).toBe('Notices');
  });

  it('says when there is no notice, and shows a failed list as an error with Try again', async () => {
    notices = [];
    show();
    fireEvent.click(screen.getByTestId('notices-bell'));
    expect((await screen.findByTestId('notices-empty')).textContent).toContain('No notices yet.');

    listFails = true;
    fireEvent.focus(window);
    window.dispatchEvent(new Event('visibilitychange'));
    expect((await screen.findByTestId('query-error')).textContent).toContain('Your notices could not be loaded');
    expect(screen.queryByTestId('notices-empty')).toBeNull();
    listFails = false;
    fireEvent.click(screen.getByTestId('query-retry'));
    expect(await screen.findByTestId('notices-empty')).toBeTruthy();
  });
});

import type { OrderDto, OrderStatus } from '@resi/contract';
import { QueryClientProvider } from '@tanstack/react-query';
import { act, renderHook } from '@testing-library/react';
import type { ReactNode } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createQueryClient } from '@/lib/query-client';
import { ORDER_POLL_MS, orderPollInterval, useOrderStatus } from './check-order';

const order = (status: OrderStatus): OrderDto => ({
  orderNo: 'D20260101000000123456',
  kind: 'dynamic',
  status,
  items: [],
  amount: 2500,
  currency: 'USD',
  payMethod: 'sandbox',
  payment: { type: 'redirect', url: '/api/pay/sandbox/D20260101000000123456' },
  note: null,
  expiresAt: '2026-01-01T00:30:00Z',
  paidAt: null,
  createdAt: '2026-01-01T00:00:00Z',
});

const fetchMock = vi.fn<typeof fetch>();
/** The statuses the server answers, one per order-check; the last one repeats. */
function serverAnswers(...statuses: OrderStatus[]) {
  let i = 0;
  fetchMock.mockImplementation(async () => Response.json({ data: order(statuses[Math.min(i++, statuses.length - 1)] as OrderStatus) }));
}

function renderPoll(initial: OrderDto) {
  const client = createQueryClient();
  const wrapper = ({ children }: { children: ReactNode }) => <QueryClientProvider client={client}>{children}</QueryClientProvider>;
  return renderHook(() => useOrderStatus(initial), { wrapper });
}

const tick = (ms: number) => act(() => vi.advanceTimersByTimeAsync(ms));

beforeEach(() => {
  vi.useFakeTimers();
  fetchMock.mockReset();
  vi.stubGlobal('fetch', fetchMock);
});
afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

describe('orderPollInterval', () => {
  it('polls every 3 s while the order is pending (or not yet known)', () => {
    expect(ORDER_POLL_MS).toBe(3000);
    expect(orderPollInterval({ status: 'pending' })).toBe(3000);
    expect(orderPollInterval(undefined)).toBe(3000);
  });

  it.each(['paid', 'expired', 'cancelled', 'refunded'] as const)('stops once the order is %s', (status) => {
    expect(orderPollInterval({ status })).toBe(false);
  });
});

describe('useOrderStatus', () => {
  it('asks POST /api/order-check every 3 s until the order is paid, then stops', async () => {
    serverAnswers('pending', 'pending', 'paid');
    const { result } = renderPoll(order('pending'));
    await tick(0);
    expect(fetchMock).toHaveBeenCalledTimes(1);
    const [url, init] = fetchMock.mock.calls[0] ?? [];
    expect(url).toBe('/api/order-check');
    expect(init?.method).toBe('POST');
    expect(JSON.parse(String(init?.body))).toEqual({ orderNo: 'D20260101000000123456' });
    expect(result.current.status).toBe('pending');

    await tick(ORDER_POLL_MS);
    expect(fetchMock).toHaveBeenCalledTimes(2);
    await tick(ORDER_POLL_MS);
    expect(fetchMock).toHaveBeenCalledTimes(3);
    await tick(10);
    expect(result.current.status).toBe('paid');

    await tick(ORDER_POLL_MS * 5);
    expect(fetchMock).toHaveBeenCalledTimes(3);
  });

  it('stops when the order expires', async () => {
    serverAnswers('pending', 'expired');
    const { result } = renderPoll(order('pending'));
    await tick(ORDER_POLL_MS * 4);
    expect(result.current.status).toBe('expired');
    expect(fetchMock).toHaveBeenCalledTimes(2);
  });

  it('keeps polling after a failed check, without giving up', async () => {
    fetchMock.mockResolvedValueOnce(Response.json({ code: 'INTERNAL', message: 'boom' }, { status: 500 }));
    fetchMock.mockImplementation(async () => Response.json({ data: order('pending') }));
    const { result } = renderPoll(order('pending'));
    await tick(ORDER_POLL_MS * 2);
    expect(fetchMock).toHaveBeenCalledTimes(3);
    expect(result.current.status).toBe('pending');
  });

  it('stops polling when the payment screen unmounts', async () => {
    serverAnswers('pending');
    const { unmount } = renderPoll(order('pending'));
    await tick(ORDER_POLL_MS);
    const calls = fetchMock.mock.calls.length;
    expect(calls).toBeGreaterThanOrEqual(1);
    unmount();
    await tick(ORDER_POLL_MS * 10);
    expect(fetchMock).toHaveBeenCalledTimes(calls);
  });

  it('does not poll an order that is already settled', async () => {
    serverAnswers('paid');
    renderPoll(order('paid'));
    await tick(ORDER_POLL_MS * 5);
    expect(fetchMock.mock.calls.length).toBeLessThanOrEqual(1);
  });
});

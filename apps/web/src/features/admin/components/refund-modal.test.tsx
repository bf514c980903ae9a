import type { AdminOrderDto, OrderRefundDto } from '@resi/contract';
import { QueryClientProvider } from '@tanstack/react-query';
import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { App } from 'antd';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createQueryClient } from '@/lib/query-client';
import { canRefund, RefundModal } from './refund-modal';

const GB = 1024 ** 3;
const order: AdminOrderDto = {
  orderNo: 'D20261124103000123456',
  kind: 'dynamic',
  status: 'paid',
  items: [{ type: 'traffic', name: { en: 'Basic 10 GB', 'zh-cn': '基础 10 GB', zh: '基礎 10 GB' }, bytes: 10 * GB, validityDays: 30, quantity: 1, unitPrice: 2500 }],
  amount: 2500,
  currency: 'USD',
  payMethod: 'sandbox',
  payment: null,
  note: null,
  expiresAt: '2026-11-24T11:00:00.000Z',
  paidAt: '2026-11-24T10:31:00.000Z',
  createdAt: '2026-11-24T10:30:00.000Z',
  userId: 7,
  userEmail: 'buyer@example.com',
  providerRef: null,
  paidBy: 'sandbox',
};
const takeBack = (t: Partial<OrderRefundDto['takeBack']>): OrderRefundDto['takeBack'] => ({ trafficBytes: 0, staticIps: [], renewals: [], commission: null, ...t });

const posted: unknown[] = [];
let previewAnswer: () => Response;
let refundAnswer: () => Response;

beforeEach(() => {
  posted.length = 0;
  previewAnswer = () => Response.json({ data: { order, takeBack: takeBack({ trafficBytes: 7.5 * GB }) } });
  refundAnswer = () => Response.json({ data: { order: { ...order, status: 'refunded' }, takeBack: takeBack({ trafficBytes: 7.5 * GB }) }, message: 'Refunded (test).' });
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: string, init?: RequestInit) => {
      const url = new URL(String(input), 'http://console.test');
      if (url.pathname === '/api/manage/order-refund' && init?.method === 'POST') {
        posted.push(JSON.parse(String(init.body)));
        return refundAnswer();
      }
      if (url.pathname === '/api/manage/order-refund' && url.searchParams.get('orderNo') === order.orderNo) return previewAnswer();
      return Response.json({ code: 'NOT_FOUND', message: url.pathname }, { status: 404 });
    }),
  );
});
afterEach(() => vi.unstubAllGlobals());

const waitLong = { timeout: 10_000 };

function renderModal(onClose = vi.fn()) {
  render(
    <QueryClientProvider client={createQueryClient()}>
      <App>
        <RefundModal order={order} onClose={onClose} />
      </App>
    </QueryClientProvider>,
  );
  return onClose;
}

describe('Refund an order', { timeout: 30_000 }, () => {
  it('is offered for paid orders only', () => {
    expect(canRefund({ status: 'paid' })).toBe(true);
    for (const status of ['pending', 'expired', 'cancelled', 'refunded'] as const) expect(canRefund({ status })).toBe(false);
  });

  it('shows what the customer loses, then sends the trimmed note and closes', async () => {
    const onClose = renderModal();
    expect(await screen.findByText('Unused traffic of this order: 7.5 GB (traffic already used stays billed)', {}, waitLong)).toBeTruthy();
    expect(screen.getByText('buyer@example.com')).toBeTruthy();
    fireEvent.change(screen.getByTestId('refund-note'), { target: { value: '  Stripe dashboard, re_1  ' } });
    fireEvent.click(screen.getByTestId('refund-submit'));
    await waitFor(() => expect(posted).toEqual([{ orderNo: order.orderNo, note: 'Stripe dashboard, re_1' }]), waitLong);
    await waitFor(() => expect(onClose).toHaveBeenCalled(), waitLong);
  });

  it('lists released IPs and renewals taken back', async () => {
    previewAnswer = () =>
      Response.json({
        data: {
          order: { ...order, kind: 'static-renew', items: [] },
          takeBack: takeBack({ staticIps: [{ id: 1, ip: '203.0.113.9' }], renewals: [{ id: 2, ip: '203.0.113.10', days: 30, expiresAt: '2026-12-01T00:00:00.000Z' }] }),
        },
      });
    renderModal();
    expect(await screen.findByText('Static IP 203.0.113.9: released, its login stops working', {}, waitLong)).toBeTruthy();
    expect(screen.getByText(/^Static IP 203\.0\.113\.10: the 30 days of this renewal come off; it then expires /)).toBeTruthy();
    expect(screen.queryByText(/Unused traffic/)).toBeNull();
    expect(screen.queryByTestId('refund-commission')).toBeNull();
  });

  it('names the distributor whose commission the refund cancels or takes back', async () => {
    const commission = { distributorEmail: 'dist@example.com', amount: 500, currency: 'USD', effect: 'void' as const };
    previewAnswer = () => Response.json({ data: { order, takeBack: takeBack({ commission }) } });
    renderModal();
    expect((await screen.findByTestId('refund-commission', {}, waitLong)).textContent).toBe(
      'Distributor dist@example.com: the commission of $5.00 on this order is still pending and is cancelled.',
    );
  });

  it('says a commission out of its hold is taken back from the next one', async () => {
    previewAnswer = () => Response.json({ data: { order, takeBack: takeBack({ commission: { distributorEmail: 'dist@example.com', amount: 500, currency: 'USD', effect: 'reversal' } }) } });
    renderModal();
    expect((await screen.findByTestId('refund-commission', {}, waitLong)).textContent).toMatch(/^Distributor dist@example\.com: the commission of \$5\.00 on this order has already left its hold/);
  });

  it('asks for the note before sending anything', async () => {
    renderModal();
    await screen.findByTestId('refund-take-back', {}, waitLong);
    fireEvent.change(screen.getByTestId('refund-note'), { target: { value: '   ' } });
    fireEvent.click(screen.getByTestId('refund-submit'));
    await screen.findAllByText((_, el) => el?.classList.contains('ant-form-item-explain-error') === true, {}, waitLong);
    expect(posted).toEqual([]);
  });

  it('stays open with the server’s words when the refund is refused', async () => {
    refundAnswer = () => Response.json({ code: 'ORDER_ALREADY_REFUNDED', message: 'Already refunded (test).' }, { status: 409 });
    const onClose = renderModal();
    await screen.findByTestId('refund-take-back', {}, waitLong);
    fireEvent.change(screen.getByTestId('refund-note'), { target: { value: 'bank transfer' } });
    fireEvent.click(screen.getByTestId('refund-submit'));
    expect(await screen.findByText('Already refunded (test).', {}, waitLong)).toBeTruthy();
    expect(onClose).not.toHaveBeenCalled();
  });

  it('shows a failed preview as an error with retry, not as nothing to take back', async () => {
    previewAnswer = () => Response.json({ code: 'INTERNAL', message: 'Down (test).' }, { status: 500 });
    renderModal();
    expect(await screen.findByTestId('refund-preview-error', {}, waitLong)).toBeTruthy();
    expect(screen.queryByTestId('refund-take-back')).toBeNull();
  });
});

import type { OrderDto, PaymentInstruction, TrafficItem } from '@resi/contract';
import { fireEvent, render, screen } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { describe, expect, it, vi } from 'vitest';
import { BYTES_PER_GB } from '@/lib/format';
import { orderBytes, PaymentStep } from './payment-step';

const base: OrderDto = {
  orderNo: 'D20260101000000123456',
  kind: 'dynamic',
  status: 'pending',
  items: [{ type: 'traffic', name: { en: 'Basic 10 GB', 'zh-cn': '基础 10 GB', zh: '基礎 10 GB' }, bytes: 10 * BYTES_PER_GB, validityDays: 30, quantity: 1, unitPrice: 2500 }],
  amount: 2500,
  currency: 'USD',
  payMethod: 'card',
  payment: null,
  note: null,
  expiresAt: '2099-01-01T00:30:00Z',
  paidAt: null,
  createdAt: '2026-01-01T00:00:00Z',
};

function show(payment: PaymentInstruction | null, order: Partial<OrderDto> = {}, handlers: { onRestart?: () => void } = {}) {
  return render(
    <MemoryRouter>
      <PaymentStep order={{ ...base, ...order }} payment={payment} onRestart={handlers.onRestart} />
    </MemoryRouter>,
  );
}

describe('PaymentStep while the order is pending', () => {
  it('shows the order number, the amount due and that it is waiting', () => {
    show({ type: 'instructions', text: 'x' });
    expect(screen.getByTestId('payment-order-no').textContent).toContain('D20260101000000123456');
    expect(screen.getByText('$25.00')).toBeTruthy();
    expect(screen.getByTestId('payment-waiting').textContent).toContain('Waiting for your payment');
  });

  it('redirect: a button opens the provider page in a new tab', () => {
    show({ type: 'redirect', url: 'https://checkout.stripe.com/c/pay/cs_test_1' });
    const link = screen.getByTestId('open-payment-page');
    expect(link.getAttribute('href')).toBe('https://checkout.stripe.com/c/pay/cs_test_1');
    expect(link.getAttribute('target')).toBe('_blank');
    expect(link.getAttribute('rel')).toContain('noopener');
  });

  it('qr: draws the QR code of the text, with a link only when there is a URL', () => {
    const { unmount } = show({ type: 'qr', text: 'https://qr.alipay.com/abc123', url: 'https://openapi.alipay.com/pay?x=1' }, { payMethod: 'alipay' });
    expect(screen.getByTestId('pay-qr').querySelector('svg')).not.toBeNull();
    expect(screen.getByText('Open AliPay on your phone and scan the code to pay.')).toBeTruthy();
    expect(screen.getByTestId('open-payment-page').getAttribute('href')).toBe('https://openapi.alipay.com/pay?x=1');
    unmount();
    show({ type: 'qr', text: 'weixin://pay', url: null });
    expect(screen.queryByTestId('open-payment-page')).toBeNull();
    expect(screen.getByText('Scan the code with your payment app to pay.')).toBeTruthy();
  });

  it('address: the TRC20 network, the address and the exact amount, with a warning to send exactly that', () => {
    show(
      { type: 'address', network: 'TRC20', asset: 'USDT', address: 'TXYZabcdefghijkmnopqrstuvwxyz12345', amount: '25.000137' },
      { payMethod: 'usdt-trc20' },
    );
    const block = screen.getByTestId('pay-address');
    expect(screen.getByTestId('pay-amount').textContent).toContain('25.000137 USDT');
    expect(screen.getByTestId('pay-address-value').textContent).toContain('TXYZabcdefghijkmnopqrstuvwxyz12345');
    expect(block.textContent).toContain('TRON (TRC20)');
    expect(block.textContent).toContain('Send exactly 25.000137 USDT');
    expect(block.textContent).toContain('Use the TRC20 network only');
    // Both the amount and the address can be copied.
    expect(block.querySelectorAll('.ant-typography-copy').length).toBe(2);
  });

  it('instructions: the operator text as written, line breaks kept', () => {
    show({ type: 'instructions', text: 'Bank: Example Bank\nReference: D20260101000000123456' }, { payMethod: 'manual' });
    const text = screen.getByTestId('pay-instructions').querySelector('.pay-instruction__text');
    expect(text?.textContent).toBe('Bank: Example Bank\nReference: D20260101000000123456');
  });
});

describe('PaymentStep once the order is settled', () => {
  it('paid: says how much traffic was added and links onwards', () => {
    show(null, { status: 'paid', paidAt: '2026-01-01T00:05:00Z' });
    const result = screen.getByTestId('payment-paid');
    expect(result.textContent).toContain('Payment received');
    expect(result.textContent).toContain('10 GB has been added to your traffic balance');
    const hrefs = [...result.querySelectorAll('a')].map((a) => a.getAttribute('href'));
    expect(hrefs).toEqual(['/center/rechargeDetails', '/center/rotatingResidential']);
    expect(screen.queryByTestId('payment-waiting')).toBeNull();
  });

  it('paid static IPs or renewal: says so, no traffic, and links to Static Residential', () => {
    const name = { en: 'Germany', 'zh-cn': '德国', zh: '德國' };
    const { unmount } = show(null, {
      status: 'paid',
      kind: 'static',
      items: [{ type: 'static', name, regionId: 1, businessId: 1, business: name, days: 30, quantity: 2, unitPrice: 500 }],
    });
    let result = screen.getByTestId('payment-paid');
    expect(result.textContent).toContain('Your static IPs are ready');
    expect(result.textContent).not.toContain('traffic balance');
    expect([...result.querySelectorAll('a')].map((a) => a.getAttribute('href'))).toEqual(['/center/staticResidential']);
    unmount();
    show(null, { status: 'paid', kind: 'static-renew', items: [{ type: 'static-renew', name, staticProxyId: 1, ip: '203.0.113.1', days: 30, quantity: 1, unitPrice: 500 }] });
    result = screen.getByTestId('payment-paid');
    expect(result.textContent).toContain('Your static IPs have been renewed');
  });

  it('expired and cancelled: a clear message and "start again"', () => {
    const onRestart = vi.fn();
    const { unmount } = show({ type: 'redirect', url: 'x' }, { status: 'expired' }, { onRestart });
    expect(screen.getByTestId('payment-expired').textContent).toContain('This order has expired');
    expect(screen.queryByTestId('pay-redirect')).toBeNull();
    fireEvent.click(screen.getByTestId('payment-restart'));
    expect(onRestart).toHaveBeenCalledTimes(1);
    unmount();
    show(null, { status: 'cancelled' }, { onRestart });
    expect(screen.getByTestId('payment-cancelled').textContent).toContain('This order was cancelled');
    expect(screen.getByTestId('payment-restart')).toBeTruthy();
  });
});

describe('orderBytes', () => {
  it('adds up the traffic of every item times its quantity', () => {
    expect(orderBytes(base)).toBe(10 * BYTES_PER_GB);
    const traffic = base.items[0] as TrafficItem;
    expect(orderBytes({ items: [...base.items, { ...traffic, bytes: BYTES_PER_GB, quantity: 3 }] })).toBe(13 * BYTES_PER_GB);
    const ip = { type: 'static', name: traffic.name, regionId: 1, businessId: 1, business: traffic.name, days: 30, quantity: 2, unitPrice: 500 } as const;
    expect(orderBytes({ items: [...base.items, ip] })).toBe(10 * BYTES_PER_GB);
  });
});

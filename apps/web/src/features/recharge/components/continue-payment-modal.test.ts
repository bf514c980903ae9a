import { describe, expect, it } from 'vitest';
import { canContinuePayment } from './continue-payment-modal';

const now = Date.parse('2026-01-01T00:10:00Z');
const open = { status: 'pending' as const, payment: { type: 'redirect' as const, url: '/pay' }, expiresAt: '2026-01-01T00:30:00Z' };

describe('canContinuePayment', () => {
  it('offers it for a pending order whose payment the server kept, before it expires', () => {
    expect(canContinuePayment(open, now)).toBe(true);
  });

  it('not without a payment to show again, once past the deadline, or for a settled order', () => {
    expect(canContinuePayment({ ...open, payment: null }, now)).toBe(false);
    expect(canContinuePayment(open, Date.parse('2026-01-01T00:30:00Z'))).toBe(false);
    expect(canContinuePayment({ ...open, status: 'paid' }, now)).toBe(false);
    expect(canContinuePayment({ ...open, status: 'expired' }, now)).toBe(false);
  });
});

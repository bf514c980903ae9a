import dayjs from 'dayjs';
import { describe, expect, it } from 'vitest';
import { canVerify, orderFilters } from './order-desk';

describe('order desk', () => {
  it('lets an admin verify pending orders and ones that expired while the money was on its way', () => {
    expect(canVerify({ status: 'pending', kind: 'dynamic' })).toBe(true);
    expect(canVerify({ status: 'expired', kind: 'dynamic' })).toBe(true);
    expect(canVerify({ status: 'paid', kind: 'dynamic' })).toBe(false);
    expect(canVerify({ status: 'cancelled', kind: 'dynamic' })).toBe(false);
    expect(canVerify({ status: 'pending', kind: 'manual-recharge' })).toBe(false);
  });

  it('turns the filter form into the list query, leaving out empty text', () => {
    expect(orderFilters({ email: '  ', orderNo: ' D2026 ', status: 'pending', range: [dayjs('2026-02-01'), null] })).toEqual({
      status: 'pending',
      kind: undefined,
      payMethod: undefined,
      email: undefined,
      orderNo: 'D2026',
      from: '2026-02-01',
      to: undefined,
    });
  });
});

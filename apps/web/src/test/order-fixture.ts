import type { OrderDto } from '@resi/contract';
import { BYTES_PER_GB } from '@/lib/format';

/** A paid sandbox order for 10 GB, numbered `n`; tests patch what they look at. */
export const orderFixture = (n: number, patch: Partial<OrderDto> = {}): OrderDto => ({
  orderNo: `D2026010100000000000${n}`,
  kind: 'dynamic',
  status: 'paid',
  items: [{ type: 'traffic', name: { en: 'Basic 10 GB', 'zh-cn': '基础 10 GB', zh: '基礎 10 GB' }, bytes: 10 * BYTES_PER_GB, validityDays: 30, quantity: 1, unitPrice: 2500 }],
  amount: 2500,
  currency: 'USD',
  payMethod: 'sandbox',
  payment: null,
  note: null,
  expiresAt: '2026-01-01T00:30:00Z',
  paidAt: '2026-01-01T00:05:00Z',
  createdAt: '2026-01-01T00:00:00Z',
  ...patch,
});

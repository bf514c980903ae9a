import type { PaymentProvider } from './provider';

/** Demo money: a page of ours that pays or fails on a click. Never in production. */
export const sandboxProvider: PaymentProvider = {
  method: 'sandbox',
  available: (production) => !production,
  configured: () => true,
  async start(order, ctx) {
    return { payment: { type: 'redirect', url: `/api/pay/sandbox/${order.order_no}?lang=${ctx.lang}` } };
  },
};

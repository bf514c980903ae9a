/*
 * Commerce's plain values, without zod: a page that only shows orders (their status, their method) loads
 * without the schema library (docs/console.md#first-load). commerce.ts re-exports them with the schemas.
 */

/** Payment adapters (docs/business-rules.md#payment-methods), in the order the buy page offers them. */
export const PAY_METHODS = ['card', 'alipay', 'usdt-trc20', 'manual', 'sandbox'] as const;
export type PayMethod = (typeof PAY_METHODS)[number];

export const ORDER_KINDS = ['dynamic', 'static', 'static-renew', 'manual-recharge'] as const;
export type OrderKind = (typeof ORDER_KINDS)[number];
export const ORDER_STATUSES = ['pending', 'paid', 'cancelled', 'expired', 'refunded'] as const;
export type OrderStatus = (typeof ORDER_STATUSES)[number];

/** Who marked an order paid: kept on the order so an operator can tell a webhook from a click. */
export const PAID_BY = ['webhook', 'watcher', 'poll', 'admin', 'sandbox'] as const;
export type PaidBy = (typeof PAID_BY)[number];

/** Minutes an unpaid order stays open (docs/business-rules.md#orders). */
export const ORDER_TTL_MINUTES = 30;
/**
 * Minutes an unpaid static IP order stays open, and so holds the IPs it reserved: shorter than other
 * orders, so unpaid orders cannot keep a region's stock from buyers who pay (docs/business-rules.md#static-residential-ips).
 */
export const STATIC_ORDER_TTL_MINUTES = 10;

import { createHash, randomInt } from 'node:crypto';
import { isUniqueViolation } from '../db/db-errors';
import { DAY, iso } from '../lib/clock';
import { AppError } from '../shared/errors';
import type { MethodConfig, PaymentOrders, PaymentProvider } from './provider';

/** Tether's USDT contract on TRON mainnet: the only token we accept as payment. */
export const USDT_CONTRACT = 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t';
export const USDT_DECIMALS = 6;
/** TronGrid's public API; any TRON node with the same HTTP API can stand in (setting `apiBase`). */
export const DEFAULT_TRON_API = 'https://api.trongrid.io';
/** The unique part of an amount: 1–9999 micro-USDT (below one cent) added to the price. */
export const MAX_OFFSET = 9999;
/** An amount is not handed out again for this long when a free one exists: a late payment of the old order must not pay a new one. */
export const AMOUNT_QUIET = DAY;
const ATTEMPTS = 25;

const BASE58 = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';
const TRON_ADDRESS = /^T[1-9A-HJ-NP-Za-km-z]{33}$/;

/** micro-USDT → `"10.000137"`. */
export function formatUsdt(micro: number): string {
  const s = String(micro).padStart(USDT_DECIMALS + 1, '0');
  return `${s.slice(0, -USDT_DECIMALS)}.${s.slice(-USDT_DECIMALS)}`;
}

/**
 * A base58check TRON address → its 21 bytes as hex (`41…`), or null when the format or the checksum is
 * wrong. The checksum matters: a mistyped address would send customers' money nowhere.
 */
export function tronAddressToHex(address: string | undefined): string | null {
  if (!address || !TRON_ADDRESS.test(address)) return null;
  let n = 0n;
  for (const ch of address) n = n * 58n + BigInt(BASE58.indexOf(ch));
  const hex = n.toString(16).padStart(50, '0');
  if (hex.length !== 50 || !hex.startsWith('41')) return null;
  const payload = Buffer.from(hex.slice(0, 42), 'hex');
  const sha = (b: Buffer) => createHash('sha256').update(b).digest();
  return sha(sha(payload)).subarray(0, 4).toString('hex') === hex.slice(42) ? hex.slice(0, 42) : null;
}

export const isTronAddress = (s: string | undefined): boolean => tronAddressToHex(s) !== null;

/** Empty (TronGrid) or an http(s) URL: anything else would fail on every poll. */
export function isApiBase(s: string | undefined): boolean {
  if (!s) return true;
  try {
    return ['http:', 'https:'].includes(new URL(s).protocol);
  } catch {
    return false;
  }
}

/**
 * An offset whose amount no USDT order had in the last day, chosen at random so two processes rarely
 * try the same one; when every amount at this price was used, any of them (the unique index still
 * keeps open orders apart).
 */
export function pickOffset(used: ReadonlySet<number>, base: number, rand: (min: number, max: number) => number = randomInt): number {
  for (let i = 0; i < 20; i++) {
    const offset = rand(1, MAX_OFFSET + 1);
    if (!used.has(base + offset)) return offset;
  }
  const free: number[] = [];
  for (let offset = 1; offset <= MAX_OFFSET; offset++) if (!used.has(base + offset)) free.push(offset);
  return free.length ? free[rand(0, free.length)]! : rand(1, MAX_OFFSET + 1);
}

async function recentAmounts(orders: PaymentOrders, base: number, since: string): Promise<Set<number>> {
  return new Set(await orders.payAmountsBetween({ method: 'usdt-trc20', currency: 'USDT', above: base, upTo: base + MAX_OFFSET, since }));
}

/**
 * USDT on TRON (docs/business-rules.md#payment-methods): the customer sends an exact amount to the operator's address. The amount
 * is the price plus a few micro-USDT that no other open order has (a partial unique index guarantees it
 * across processes), which is how the watcher knows whose transfer it sees.
 */
export const usdtTrc20Provider: PaymentProvider = {
  method: 'usdt-trc20',
  available: () => true,
  configured: (c: MethodConfig) => isTronAddress(c.settings.address) && isApiBase(c.settings.apiBase),
  async start(order, ctx) {
    // USDT is a dollar token: other store currencies would need an exchange rate we do not have.
    if (order.currency !== 'USD') throw new AppError('PAY_METHOD_CURRENCY', { currency: order.currency });
    const base = Number(order.amount) * 10 ** (USDT_DECIMALS - 2);
    const now = ctx.clock.now();
    for (let i = 0; i < ATTEMPTS; i++) {
      const used = await recentAmounts(ctx.orders, base, iso(new Date(now.getTime() - AMOUNT_QUIET)));
      const payAmount = base + pickOffset(used, base);
      try {
        if (!(await ctx.orders.setPayAmount(order.id, payAmount, 'USDT', iso(now)))) throw new AppError('ORDER_NOT_PENDING', { status: order.status });
        return { payment: { type: 'address', network: 'TRC20', asset: 'USDT', address: ctx.config.settings.address!, amount: formatUsdt(payAmount) } };
      } catch (err) {
        if (!isUniqueViolation(err)) throw err;
      }
    }
    // Thousands of open orders at one price: tell the customer to retry rather than share an amount.
    throw new AppError('PAYMENT_START_FAILED', {}, 503);
  },
};

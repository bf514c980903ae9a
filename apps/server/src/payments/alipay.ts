import { createPrivateKey, createPublicKey } from 'node:crypto';
import { AlipaySdk } from 'alipay-sdk';
import { AppError } from '../shared/errors';
import { type OrderRow, orderItems } from '../db/rows';
import type { PollThrottle } from './poll-throttle';
import { type MethodConfig, NotifyRejected, type NotifyReply, type PaymentProvider, type ProviderContext, type ProviderEvent } from './provider';

const DEFAULT_GATEWAY = 'https://openapi.alipay.com/gateway.do';
/** Alipay prices in yuan: an order is sent to it only in this currency (docs/decisions.md, Payments). */
export const ALIPAY_CURRENCY = 'CNY';
/** Trade states that mean the buyer paid (TRADE_FINISHED follows TRADE_SUCCESS for the same trade_no). */
const PAID_STATES = new Set(['TRADE_SUCCESS', 'TRADE_FINISHED']);
/** Alipay is asked about one order at most this often (shared with the card poll). */
export { QUERY_INTERVAL_MS } from './poll-throttle';
/** Alipay's acknowledgement: anything else makes it retry the notification (up to 8 times in 25 h). */
const ACK: NotifyReply = { status: 200, body: 'success', contentType: 'text/plain' };

/** Minor units (fen) → Alipay's decimal yuan string: 300 → "3.00". */
export function toYuan(minor: number): string {
  const s = String(minor).padStart(3, '0');
  return `${s.slice(0, -2)}.${s.slice(-2)}`;
}

/** Alipay's decimal yuan string → minor units, exactly (no floating point); null when it is not a plain amount. */
export function fromYuan(decimal: string): number | null {
  const m = /^(\d{1,12})(?:\.(\d{1,2}))?$/.exec(decimal);
  if (!m) return null;
  return Number(m[1]) * 100 + Number((m[2] ?? '').padEnd(2, '0'));
}

/** Alipay wants its timestamps in Beijing time (UTC+8, no daylight saving), whatever this server's zone. */
export function beijingTime(d: Date): string {
  return new Date(d.getTime() + 8 * 3_600_000).toISOString().slice(0, 19).replace('T', ' ');
}

/** The base64 body of a key pasted as PEM or as Alipay's key tool shows it (one bare base64 line). */
const keyBody = (key: string): string => key.replace(/-----[A-Z ]+-----/g, '').replace(/\s+/g, '');

/** Alipay's key tool writes PKCS#1 ("non-Java") or PKCS#8 ("Java") private keys; the SDK must be told which. */
export function privateKeyType(key: string | undefined): 'PKCS1' | 'PKCS8' | null {
  if (!key?.trim()) return null;
  const der = Buffer.from(keyBody(key), 'base64');
  for (const type of ['pkcs8', 'pkcs1'] as const) {
    try {
      if (createPrivateKey({ key: der, format: 'der', type }).asymmetricKeyType === 'rsa') return type === 'pkcs8' ? 'PKCS8' : 'PKCS1';
    } catch {
      // not this encoding
    }
  }
  return null;
}

function isRsaPublicKey(key: string | undefined): boolean {
  if (!key?.trim()) return false;
  try {
    return createPublicKey({ key: Buffer.from(keyBody(key), 'base64'), format: 'der', type: 'spki' }).asymmetricKeyType === 'rsa';
  } catch {
    return false;
  }
}

function isHttpUrl(s: string | undefined): boolean {
  if (!s?.trim()) return true; // empty: the production gateway
  try {
    return ['http:', 'https:'].includes(new URL(s).protocol);
  } catch {
    return false;
  }
}

/** A form body as Alipay posts it; a key sent twice would make "what was verified" ambiguous, so it is refused. */
function parseForm(raw: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of new URLSearchParams(raw)) {
    if (Object.hasOwn(out, k)) throw new NotifyRejected(`parameter ${k} sent twice`);
    out[k] = v;
  }
  return out;
}

/**
 * AlipaySDK's computer-website payment (alipay.trade.page.pay) with RSA2-signed asynchronous
 * notifications, and alipay.trade.query for the browser's poll, held to once per interval and order by
 * `throttle` (in the store, so across API processes). One instance per app: it caches the SDK.
 */
export function createAlipayProvider(throttle: PollThrottle): PaymentProvider {
  let cached: { key: string; sdk: AlipaySdk } | null = null;

  const sdkFor = (c: MethodConfig): AlipaySdk => {
    const privateKey = c.secrets.privateKey ?? '';
    const key = JSON.stringify([c.settings.appId, c.settings.gateway, c.settings.alipayPublicKey, privateKey]);
    if (cached?.key !== key) {
      const sdk = new AlipaySdk({
        appId: c.settings.appId!.trim(),
        privateKey: keyBody(privateKey),
        keyType: privateKeyType(privateKey) ?? 'PKCS1',
        alipayPublicKey: keyBody(c.settings.alipayPublicKey ?? ''),
        gateway: c.settings.gateway?.trim() || DEFAULT_GATEWAY,
        signType: 'RSA2',
        timeout: 5_000,
      });
      cached = { key, sdk };
    }
    return cached.sdk;
  };

  const configured = (c: MethodConfig): boolean =>
    Boolean(c.settings.appId?.trim()) && privateKeyType(c.secrets.privateKey) !== null && isRsaPublicKey(c.settings.alipayPublicKey) && isHttpUrl(c.settings.gateway);

  return {
    method: 'alipay',
    available: () => true,
    configured,

    async start(order: OrderRow, ctx: ProviderContext) {
      // Alipay's domestic checkout takes yuan; a store priced in another currency cannot be converted here.
      const currency = order.pay_currency ?? order.currency;
      if (currency !== ALIPAY_CURRENCY) throw new AppError('PAY_METHOD_CURRENCY', { currency });
      const base = ctx.publicUrl.replace(/\/+$/, '');
      const item = orderItems(order)[0];
      // Alipay refuses some characters in a subject; the order number keeps it meaningful on the statement.
      const subject = `${item?.name[ctx.lang] ?? ''} ${order.order_no}`.replace(/[/=&]/g, ' ').trim().slice(0, 128);
      const url = sdkFor(ctx.config).pageExecute('alipay.trade.page.pay', 'GET', {
        bizContent: {
          out_trade_no: order.order_no,
          product_code: 'FAST_INSTANT_TRADE_PAY',
          total_amount: toYuan(Number(order.pay_amount)),
          subject,
          // The order's own deadline rather than `timeout_express: 30m`, which would count from when the
          // buyer opens the cashier and so outlive the order.
          time_expire: beijingTime(new Date(order.expires_at)),
        },
        notifyUrl: `${base}/api/pay/notify/alipay`,
        returnUrl: `${base}/manage/center/rechargeDetails`,
        timestamp: beijingTime(ctx.clock.now()),
      });
      return { payment: { type: 'redirect', url } };
    },

    async verifyNotify(req, ctx) {
      const c = ctx.config;
      if (!configured(c)) throw new NotifyRejected('alipay is not configured');
      const p = parseForm(req.rawBody);
      if (!p.sign) throw new NotifyRejected('unsigned');
      if (p.sign_type !== 'RSA2') throw new NotifyRejected('sign_type is not RSA2');
      // V2 verifies the values as received (already URL-decoded once), see alipay-sdk-nodejs-all#45.
      if (!sdkFor(c).checkNotifySignV2(p)) throw new NotifyRejected('bad signature');

      // Verified from here on. A trade that is not paid (WAIT_BUYER_PAY, TRADE_CLOSED) is acknowledged so
      // Alipay stops repeating it, and recorded nowhere: no money moved.
      if (!PAID_STATES.has(p.trade_status ?? '')) return { events: [], reply: ACK };
      const amount = fromYuan(p.total_amount ?? '');
      if (!p.trade_no || !p.out_trade_no || amount === null) throw new NotifyRejected('trade_no, out_trade_no or total_amount missing');
      // Money paid to another Alipay app or seller account is not ours to credit: kept for the admin.
      const sellerId = c.settings.sellerId?.trim();
      const otherMerchant = p.app_id !== c.settings.appId!.trim() || (sellerId ? p.seller_id !== sellerId : false);
      const event: ProviderEvent = {
        provider: 'alipay',
        // One trade is one payment: TRADE_SUCCESS and the later TRADE_FINISHED share it, so both act once.
        eventId: p.trade_no,
        orderNo: p.out_trade_no,
        amount,
        // A domestic notification carries no currency: total_amount is yuan. Only a trade priced in a
        // foreign currency names one (trans_currency); ours never are, so such a trade is a mismatch.
        currency: (p.trans_currency?.trim() || ALIPAY_CURRENCY).toUpperCase(),
        display: p.total_amount!,
        by: 'webhook',
        payload: { ...p, sign: undefined },
        ...(otherMerchant ? { problem: 'MERCHANT_MISMATCH' as const } : {}),
      };
      return { events: [event], reply: ACK };
    },

    async query(order, ctx) {
      if (order.pay_method !== 'alipay' || !configured(ctx.config) || !(await throttle.mayAsk('alipay', order.order_no, ctx.clock.now()))) return null;
      try {
        const res = await sdkFor(ctx.config).exec(
          'alipay.trade.query',
          { bizContent: { out_trade_no: order.order_no }, timestamp: beijingTime(ctx.clock.now()) },
          { validateSign: true },
        );
        const amount = fromYuan(String(res.totalAmount ?? ''));
        if (res.code !== '10000' || !PAID_STATES.has(res.tradeStatus) || res.outTradeNo !== order.order_no || !res.tradeNo || amount === null) return null;
        return { provider: 'alipay', eventId: String(res.tradeNo), orderNo: order.order_no, amount, currency: ALIPAY_CURRENCY, display: String(res.totalAmount), by: 'poll' };
      } catch {
        // Unreachable or unverifiable answer: the order stays pending; the notification or the next poll decides.
        return null;
      }
    },
  };
}

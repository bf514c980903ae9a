import type { Lang } from '@resi/contract';
import Stripe from 'stripe';
import { AppError } from '../shared/errors';
import { orderItems } from '../db/rows';
import type { PollThrottle } from './poll-throttle';
import { type MethodConfig, NotifyRejected, type NotifyReply, type PaymentProvider, type ProviderEvent } from './provider';

/** Stripe's own default: a signed webhook older than this many seconds is a replay, not a delivery. */
export const WEBHOOK_TOLERANCE_S = 300;
/**
 * Stripe refuses a Checkout Session that expires less than 30 minutes after it is created (by its clock);
 * one minute more absorbs the trip there. A payment in that last minute after the order expired goes
 * to the admin's review list.
 */
export const SESSION_TTL_S = 31 * 60;
const PAYING_EVENTS = new Set(['checkout.session.completed', 'checkout.session.async_payment_succeeded']);
const ACK: NotifyReply = { status: 200, body: JSON.stringify({ received: true }), contentType: 'application/json' };
const STRIPE_LOCALE: Record<Lang, 'en' | 'zh' | 'zh-TW'> = { en: 'en', 'zh-cn': 'zh', zh: 'zh-TW' };

export interface CardOptions {
  /** Holds the poll of Stripe for an order to once per interval, across processes. */
  throttle: PollThrottle;
  /** Test-only (config STRIPE_API_BASE): where the SDK sends API calls instead of Stripe, e.g. a local fake. */
  apiBase?: string;
}

/** The `t=` of a Stripe-Signature header (seconds), which the SDK has just checked the signature over. */
function signedTimestamp(header: string): number | null {
  const t = header.split(',').find((part) => part.startsWith('t='))?.slice(2);
  return t && /^\d+$/.test(t) ? Number(t) : null;
}

/** The currency Stripe charges in: the setting when given, else the order's own. */
const chargeCurrency = (c: MethodConfig, orderCurrency: string) => (c.settings.currency?.trim() || orderCurrency).toUpperCase();

/**
 * A paid Checkout Session as one payment. Keyed by the session, not the event: a session is paid at most
 * once, so a replayed event, a second event about it (completed, then async_payment_succeeded) and the
 * poll's answer are all one payment.
 */
function paidSessionEvent(s: Stripe.Checkout.Session, by: 'webhook' | 'poll', payload: Record<string, unknown>): ProviderEvent {
  return {
    provider: 'card',
    eventId: s.id,
    orderNo: s.metadata?.orderNo ?? s.client_reference_id ?? null,
    amount: s.amount_total ?? -1,
    currency: (s.currency ?? '').toUpperCase(),
    display: String(s.amount_total),
    by,
    payload: { ...payload, paymentIntent: s.payment_intent },
  };
}

/** Stripe Checkout (hosted card page) with signed webhooks, and a poll of the session when a webhook is missed. */
export function createCardProvider(opts: CardOptions): PaymentProvider {
  let cached: { key: string; stripe: Stripe } | null = null;
  const api = opts.apiBase ? new URL(opts.apiBase) : null;

  const stripeFor = (secretKey: string): Stripe => {
    if (cached?.key !== secretKey) {
      const stripe = new Stripe(secretKey, {
        maxNetworkRetries: 1,
        timeout: 20_000,
        telemetry: false,
        ...(api ? { host: api.hostname, port: api.port || (api.protocol === 'http:' ? 80 : 443), protocol: api.protocol === 'http:' ? 'http' : 'https' } : {}),
      });
      cached = { key: secretKey, stripe };
    }
    return cached.stripe;
  };

  const configured = (c: MethodConfig) => Boolean(c.secrets.secretKey?.trim() && c.secrets.webhookSecret?.trim()) && /^([A-Za-z]{3})?$/.test(c.settings.currency?.trim() ?? '');

  return {
    method: 'card',
    available: () => true,
    configured,

    async start(order, ctx) {
      const orderCurrency = order.pay_currency ?? order.currency;
      // No exchange rates here: a Stripe account set to charge another currency cannot take this order.
      if (chargeCurrency(ctx.config, orderCurrency) !== orderCurrency) throw new AppError('PAY_METHOD_CURRENCY', { currency: orderCurrency });
      const base = ctx.publicUrl.replace(/\/+$/, '');
      const item = orderItems(order)[0];
      const session = await stripeFor(ctx.config.secrets.secretKey!).checkout.sessions.create(
        {
          mode: 'payment',
          line_items: [
            {
              // Stripe's unit_amount is the currency's minor unit, the same unit the order keeps.
              price_data: { currency: orderCurrency.toLowerCase(), unit_amount: Number(order.pay_amount), product_data: { name: item?.name[ctx.lang] ?? order.order_no } },
              quantity: 1,
            },
          ],
          client_reference_id: order.order_no,
          metadata: { orderNo: order.order_no },
          locale: STRIPE_LOCALE[ctx.lang],
          success_url: `${base}/manage/center/rechargeDetails?orderNo=${encodeURIComponent(order.order_no)}`,
          cancel_url: `${base}/manage/center/buy`,
          expires_at: Math.floor(ctx.clock.now().getTime() / 1000) + SESSION_TTL_S,
        },
        // A retried create (network error) answers the same session instead of opening a second one.
        { idempotencyKey: `checkout-${order.order_no}` },
      );
      if (!session.url) throw new Error(`Stripe answered session ${session.id} without a URL`);
      return { payment: { type: 'redirect', url: session.url }, providerRef: session.id };
    },

    async verifyNotify(req, ctx) {
      const secret = ctx.config.secrets.webhookSecret?.trim();
      if (!secret) throw new NotifyRejected('card webhooks are not configured');
      const header = req.headers['stripe-signature'];
      if (typeof header !== 'string' || !header) throw new NotifyRejected('stripe-signature header missing');
      let event: Stripe.Event;
      try {
        // Age is measured on our clock, so the tolerance holds in tests that move time.
        event = await Stripe.webhooks.constructEventAsync(req.rawBody, header, secret, WEBHOOK_TOLERANCE_S, undefined, ctx.clock.now().getTime());
      } catch (err) {
        // The SDK's message names what failed (signature, timestamp, header); it never holds the secret.
        throw new NotifyRejected(`stripe: ${String((err as Error).message).split('\n')[0]}`);
      }
      // The SDK only refuses signatures older than the tolerance: one dated further ahead (a leaked secret
      // used to pre-sign events, or a skewed signer) would stay valid until that time, so it is stale too.
      const signedAt = signedTimestamp(header);
      if (signedAt === null || signedAt - ctx.clock.now().getTime() / 1000 > WEBHOOK_TOLERANCE_S) {
        throw new NotifyRejected('stripe: timestamp in the future beyond the tolerance zone');
      }
      // Anything else Stripe sends this endpoint (refunds, disputes…) is acknowledged and ignored for now.
      if (!PAYING_EVENTS.has(event.type)) return { events: [], reply: ACK };
      const s = event.data.object as Stripe.Checkout.Session;
      // `completed` with `unpaid` is a bank debit still on its way; async_payment_succeeded follows it.
      if (s.payment_status !== 'paid') return { events: [], reply: ACK };
      return { events: [paidSessionEvent(s, 'webhook', { eventId: event.id, type: event.type, livemode: event.livemode })], reply: ACK };
    },

    /**
     * A missed webhook must not leave a paid order pending: order-check asks Stripe for the order's
     * Checkout Session (at most once per 10 s per order and process). A paid session of this order is
     * the same payment the webhook would bring, under the same key; amount and currency are checked by
     * fulfilment like any event's.
     */
    async query(order, ctx) {
      if (order.pay_method !== 'card' || !order.provider_ref || !configured(ctx.config) || !(await opts.throttle.mayAsk('card', order.order_no, ctx.clock.now()))) return null;
      let s: Stripe.Checkout.Session;
      try {
        s = await stripeFor(ctx.config.secrets.secretKey!).checkout.sessions.retrieve(order.provider_ref);
      } catch {
        // Stripe unreachable or refusing: the order stays pending; the webhook or the next poll decides.
        return null;
      }
      const namesOrder = (s.metadata?.orderNo ?? s.client_reference_id) === order.order_no;
      if (s.id !== order.provider_ref || s.payment_status !== 'paid' || !namesOrder) return null;
      return paidSessionEvent(s, 'poll', { livemode: s.livemode });
    },
  };
}

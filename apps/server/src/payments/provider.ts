import type { Lang, PaidBy, PayMethod, PaymentInstruction, ReviewReason } from '@resi/contract';
import type { OrderRow } from '../db/rows';
import type { Clock } from '../lib/clock';

/** A payment as a provider reported it, after its signature or source was verified. */
export interface ProviderEvent {
  provider: PayMethod;
  /** The provider's own id of this payment (transaction id, event id): each is acted on once. */
  eventId: string;
  orderNo: string | null;
  /** In the provider's unit, compared with the order's pay_amount and pay_currency. */
  amount: number;
  currency: string;
  /** The amount as the provider wrote it, for people reading the review list. */
  display: string;
  by: PaidBy;
  payload?: unknown;
  /** Set by an adapter when a verified payment is not ours to credit (paid to another merchant account, sent before its order existed). */
  problem?: ReviewReason;
}

/**
 * What an adapter may ask of the stored orders; modules/orders/order-repository.ts implements it. Adapters
 * get this port, never the database: which rows and columns they touch is decided on the orders' side.
 */
export interface PaymentOrders {
  /** Pay amounts in `(above, upTo]` of the orders in this method and currency created since `since`. */
  payAmountsBetween(q: { method: PayMethod; currency: string; above: number; upTo: number; since: string }): Promise<number[]>;
  /**
   * Gives a still pending order its own pay amount and currency; false when it is no longer pending. When
   * another open order holds that amount the store's unique index refuses it (isUniqueViolation).
   */
  setPayAmount(orderId: number, amount: number, currency: string, now: string): Promise<boolean>;
  /** Orders in this method and currency with exactly this pay amount created since `since`, newest first. */
  byPayAmount(q: { method: PayMethod; currency: string; amount: number; since: string }): Promise<{ order_no: string; status: string; created_at: string }[]>;
}

/** Where a verified payment goes (modules/orders/fulfilment.ts implements it): recorded once, credited when it matches. */
export interface PaymentRecorder {
  isRecorded(provider: PayMethod, eventId: string): Promise<boolean>;
  recordEvent(ev: ProviderEvent): Promise<{ result: 'credited' | 'duplicate' | 'review' }>;
}

/** A method's saved settings (modules/payments/pay-config-service.ts implements it). */
export interface PaymentSettings {
  get(method: PayMethod): Promise<MethodConfig>;
}

/** A method's saved settings, secrets already decrypted. */
export interface MethodConfig {
  enabled: boolean;
  settings: Record<string, string>;
  secrets: Record<string, string>;
}

export interface ProviderContext {
  orders: PaymentOrders;
  clock: Clock;
  config: MethodConfig;
  /** Absolute base of this console, for return and notify URLs (PUBLIC_URL). */
  publicUrl: string;
  lang: Lang;
  production: boolean;
}

/** A webhook as it arrived: the raw body, since signatures are computed over the exact bytes. */
export interface NotifyRequest {
  headers: Record<string, string | string[] | undefined>;
  rawBody: string;
}

/** What the webhook answers: providers want their own acknowledgement (`success` for AliPay). */
export interface NotifyReply {
  status: number;
  body: string;
  contentType?: string;
}

export class NotifyRejected extends Error {
  constructor(readonly reason: string) {
    super(reason);
  }
}

/**
 * One payment method (docs/business-rules.md#payment-methods). `start` runs after the order row exists (pay_amount and
 * pay_currency already set to the order's amount and currency; a provider with its own unit updates
 * them) and answers what the browser does next.
 */
export interface PaymentProvider {
  readonly method: PayMethod;
  /** False where the method may not run at all (the sandbox in production). */
  available(production: boolean): boolean;
  /** True when the saved settings are enough to take a payment. */
  configured(config: MethodConfig): boolean;
  start(order: OrderRow, ctx: ProviderContext): Promise<{ payment: PaymentInstruction; providerRef?: string }>;
  /** Verifies a webhook; throws NotifyRejected when it cannot be trusted. */
  verifyNotify?(req: NotifyRequest, ctx: ProviderContext): Promise<{ events: ProviderEvent[]; reply: NotifyReply }>;
  /** Asks the provider whether an open order was paid (the browser's poll); null when not yet. */
  query?(order: OrderRow, ctx: ProviderContext): Promise<ProviderEvent | null>;
}

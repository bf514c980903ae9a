import type { Lang, PayMethod, PaymentInstruction } from '@resi/contract';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema';
import type { Clock } from '../lib/clock';
import type { ProviderEvent } from '../modules/orders/fulfilment';
import type { OrderRow } from '../modules/orders/order-dto';

/** A method's saved settings, secrets already decrypted. */
export interface MethodConfig {
  enabled: boolean;
  settings: Record<string, string>;
  secrets: Record<string, string>;
}

export interface ProviderContext {
  db: Kysely<Database>;
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
 * One payment method (DESIGN §5.5). `start` runs after the order row exists (pay_amount and
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

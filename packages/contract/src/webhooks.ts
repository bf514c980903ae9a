import { z } from 'zod';
import { pageQuery } from './envelope';
import { entityId } from './ids';

/*
 * Customer webhooks (DESIGN §14; docs/api.md#webhooks): endpoints a customer registers for events, each
 * delivery signed with the endpoint's secret (`X-Resi-Signature: v1=<hex HMAC-SHA256 of "timestamp.body">`),
 * retried with backoff for a day and logged, where it can be replayed.
 */

export const WEBHOOK_EVENTS = ['usage.threshold', 'balance.empty', 'order.paid', 'static.expiring', 'static.replaced'] as const;
export type WebhookEvent = (typeof WEBHOOK_EVENTS)[number];

/** Endpoints one customer may have at once. */
export const WEBHOOKS_MAX = 10;

export const WEBHOOK_DELIVERY_STATUSES = ['pending', 'delivered', 'failed'] as const;
export type WebhookDeliveryStatus = (typeof WEBHOOK_DELIVERY_STATUSES)[number];

export const webhookDto = z.object({
  id: z.number().int(),
  url: z.string(),
  events: z.array(z.enum(WEBHOOK_EVENTS)),
  /** False: events are not sent to it (its deliveries already queued are still tried). */
  enabled: z.boolean(),
  createdAt: z.string(),
});
export type WebhookDto = z.infer<typeof webhookDto>;

/** A new endpoint: its signing secret in `secret`, in this answer only. */
export const createdWebhookDto = webhookDto.extend({ secret: z.string() });
export type CreatedWebhookDto = z.infer<typeof createdWebhookDto>;

const url = z
  .string({ error: 'validation.webhookUrl' })
  .trim()
  .max(2000, { error: 'validation.webhookUrl' })
  .pipe(z.url({ protocol: /^https?$/, error: 'validation.webhookUrl' }));
const events = z
  .array(z.enum(WEBHOOK_EVENTS, { error: 'validation.webhookEvents' }), { error: 'validation.webhookEvents' })
  .min(1, { error: 'validation.webhookEvents' })
  .max(WEBHOOK_EVENTS.length, { error: 'validation.webhookEvents' })
  .transform((list) => [...new Set(list)]);

export const createWebhookBody = z.strictObject({ url, events });
export type CreateWebhookBody = z.infer<typeof createWebhookBody>;

/** What is left out stays as it is. */
export const updateWebhookBody = z.strictObject({ url: url.optional(), events: events.optional(), enabled: z.boolean({ error: 'validation.webhookEnabled' }).optional() });
export type UpdateWebhookBody = z.infer<typeof updateWebhookBody>;

export const webhookDeliveryParams = z.strictObject({ id: entityId, deliveryId: entityId });

/** An endpoint's deliveries, newest first; `status` filters. */
export const webhookDeliveryQuery = pageQuery.extend({ status: z.enum(WEBHOOK_DELIVERY_STATUSES, { error: 'validation.webhookDeliveryStatus' }).optional() });
export type WebhookDeliveryQuery = z.infer<typeof webhookDeliveryQuery>;

export const webhookDeliveryDto = z.object({
  id: z.number().int(),
  webhookId: z.number().int(),
  event: z.enum(WEBHOOK_EVENTS),
  /** The event's id (the body's `id`): the same in every retry and replay, so a receiver can drop repeats. */
  eventId: z.string(),
  status: z.enum(WEBHOOK_DELIVERY_STATUSES),
  attempts: z.number().int(),
  /** When the next try is due (pending only). */
  nextAttemptAt: z.string().nullable(),
  /** The receiver's HTTP status at the last try; null when it gave none (timeout, refused connection). */
  lastStatusCode: z.number().int().nullable(),
  /** The start of the receiver's last answer (at most 1 KB of text). */
  lastResponse: z.string().nullable(),
  /** Why the last try failed without an answer, or what the destination guard refused. */
  lastError: z.string().nullable(),
  /** The exact JSON sent. */
  body: z.string(),
  /** The delivery this one replays, if any. */
  replayOf: z.number().int().nullable(),
  createdAt: z.string(),
  deliveredAt: z.string().nullable(),
});
export type WebhookDeliveryDto = z.infer<typeof webhookDeliveryDto>;

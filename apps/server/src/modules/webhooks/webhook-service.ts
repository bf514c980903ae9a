import {
  type CreateWebhookBody,
  type CreatedWebhookDto,
  type UpdateWebhookBody,
  WEBHOOKS_MAX,
  type WebhookDeliveryDto,
  type WebhookDeliveryQuery,
  type WebhookDto,
  type WebhookEvent,
  type Page,
} from '@resi/contract';
import { randomUUID } from 'node:crypto';
import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../../db/schema';
import { type Clock, DAY, MINUTE, addMs, iso } from '../../lib/clock';
import type { SealedBox } from '../../lib/sealed-box';
import { newToken } from '../../lib/secrets';
import { AppError } from '../../shared/errors';
import type { WebhookDestinations } from './webhook-destination';
import { type DueDelivery, type WebhookDeliveryRow, type WebhookEndpointRow, WebhookRepository } from './webhook-repository';
import { type SendOutcome, type WebhookSender, retryAfterMs } from './webhook-sender';

const HOUR = 60 * MINUTE;
/** How long a delivery is retried, counted from when its event happened. */
export const RETRY_FOR_MS = DAY;
/** The wait after the n-th failed attempt: 30 s, doubling, at most an hour. */
export const backoffMs = (attempts: number): number => Math.min(HOUR, 30_000 * 2 ** Math.max(0, attempts - 1));
/**
 * The wait after a failed attempt: the backoff, or longer when a receiver busy or rate-limiting us (429, 503) asked
 * for it with Retry-After — up to the backoff's own longest wait, an hour, so no receiver parks a delivery beyond its
 * day of retries. Never sooner than the backoff: a receiver cannot make us hammer it.
 */
const retryWaitMs = (attempts: number, outcome: SendOutcome, nowMs: number): number =>
  Math.max(backoffMs(attempts), Math.min(HOUR, retryAfterMs(outcome.retryAfter, nowMs) ?? 0));
/** A taken delivery is left to its runner this long before another may try it (beyond the send's timeout). */
const CLAIM_MS = MINUTE;
/** Deliveries one run of the job sends, and how many at once. */
const BATCH = 50;
const PARALLEL = 8;
/** Finished deliveries are kept this long; event keys (sent-once events) longer than any window they guard. */
const KEEP_DELIVERIES_MS = 30 * DAY;
const KEEP_EVENT_KEYS_MS = 90 * DAY;
const PRUNE_EVERY_MS = HOUR;
const SECRET_PREFIX = 'whsec_';

/** What other modules call to report an event; a transaction makes the delivery part of the change it reports. */
export interface WebhookEmitter {
  emit(userId: number, event: WebhookEvent, data: unknown, trx?: Transaction<Database>): Promise<number>;
  emitOnce(key: string, userId: number, event: WebhookEvent, data: unknown): Promise<number>;
  subscribers(event: WebhookEvent): Promise<number[]>;
}

export interface WebhookLog {
  warn(obj: object, msg: string): void;
  debug(obj: object, msg: string): void;
}

const toDto = (row: WebhookEndpointRow): WebhookDto => ({
  id: row.id,
  url: row.url,
  events: row.events.split(',') as WebhookEvent[],
  enabled: row.enabled === 1,
  createdAt: row.created_at,
});

const toDeliveryDto = (row: WebhookDeliveryRow): WebhookDeliveryDto => ({
  id: row.id,
  webhookId: row.endpoint_id,
  event: row.event,
  eventId: row.event_id,
  status: row.status,
  attempts: row.attempts,
  nextAttemptAt: row.status === 'pending' ? row.next_attempt_at : null,
  lastStatusCode: row.last_status_code,
  lastResponse: row.last_response,
  lastError: row.last_error,
  body: row.body,
  replayOf: row.replay_of,
  createdAt: row.created_at,
  deliveredAt: row.delivered_at,
});

/**
 * Customer webhooks (docs/api.md#webhooks). Events are written as pending deliveries, one per subscribed
 * endpoint, in the transaction of the change they report (an outbox: none is lost, none is sent for a change
 * rolled back); the delivery job sends what is due, signed, and retries with backoff for a day.
 */
export class WebhookService implements WebhookEmitter {
  private readonly repo: WebhookRepository;
  private lastPrune = 0;

  constructor(
    private readonly db: Kysely<Database>,
    private readonly clock: Clock,
    private readonly box: SealedBox,
    private readonly destinations: WebhookDestinations,
    private readonly sender: WebhookSender,
    private readonly log: WebhookLog,
  ) {
    this.repo = new WebhookRepository(db);
  }

  // ---------- endpoints ----------

  async list(userId: number): Promise<WebhookDto[]> {
    return (await this.repo.listEndpoints(userId)).map(toDto);
  }

  /** `t`: the request's texts, for a URL the destination rules refuse. The secret is in this answer only. */
  async create(userId: number, body: CreateWebhookBody, t: (key: string) => string): Promise<CreatedWebhookDto> {
    await this.assertDestination(body.url, t);
    const secret = `${SECRET_PREFIX}${newToken()}`;
    const now = iso(this.clock.now());
    const row = await this.repo.insertEndpointWithin({ user_id: userId, url: body.url, events: body.events.join(','), secret_sealed: this.box.seal(secret), enabled: 1, created_at: now, updated_at: now }, WEBHOOKS_MAX);
    if (!row) throw new AppError('WEBHOOKS_FULL', { max: WEBHOOKS_MAX });
    return { ...toDto(row), secret };
  }

  async update(userId: number, id: number, body: UpdateWebhookBody, t: (key: string) => string): Promise<WebhookDto> {
    if (body.url !== undefined) await this.assertDestination(body.url, t);
    const row = await this.repo.updateEndpoint(id, userId, {
      ...(body.url !== undefined ? { url: body.url } : {}),
      ...(body.events !== undefined ? { events: body.events.join(',') } : {}),
      ...(body.enabled !== undefined ? { enabled: body.enabled ? 1 : 0 } : {}),
      updated_at: iso(this.clock.now()),
    });
    if (!row) throw new AppError('NOT_FOUND');
    return toDto(row);
  }

  async remove(userId: number, id: number): Promise<void> {
    if (!(await this.repo.deleteEndpoint(id, userId))) throw new AppError('NOT_FOUND');
  }

  async deliveries(userId: number, id: number, q: WebhookDeliveryQuery): Promise<Page<WebhookDeliveryDto>> {
    await this.ownEndpoint(userId, id);
    const { items, total } = await this.repo.pageDeliveries(id, q);
    return { items: items.map(toDeliveryDto), total, page: q.page, pageSize: q.pageSize };
  }

  /**
   * Sends a delivery's event again now, as a new delivery of the same event (same `id` in the body, so the
   * receiver can tell it is a repeat), signed with a fresh timestamp; answers it after this first attempt.
   * Should the attempt fail, the new delivery is retried like any other.
   */
  async replay(userId: number, id: number, deliveryId: number): Promise<WebhookDeliveryDto> {
    const endpoint = await this.ownEndpoint(userId, id);
    const original = await this.repo.findDelivery(deliveryId, id);
    if (!original) throw new AppError('NOT_FOUND');
    const now = this.clock.now();
    // Inserted as taken by this request (its next attempt a claim's length away), so the job leaves it alone.
    const [copy] = await this.repo.insertDeliveries([
      { endpoint_id: id, event: original.event, event_id: original.event_id, body: original.body, status: 'pending', next_attempt_at: iso(addMs(now, CLAIM_MS)), replay_of: original.id, created_at: iso(now) },
    ]);
    const after = await this.send({ ...copy!, url: endpoint.url, secret_sealed: endpoint.secret_sealed }, now);
    return toDeliveryDto(after ?? copy!);
  }

  private async ownEndpoint(userId: number, id: number): Promise<WebhookEndpointRow> {
    const endpoint = await this.repo.findEndpoint(id, userId);
    // Another customer's endpoint is "not found", never "forbidden" (docs/api.md#errors).
    if (!endpoint) throw new AppError('NOT_FOUND');
    return endpoint;
  }

  private async assertDestination(url: string, t: (key: string) => string): Promise<void> {
    const problem = await this.destinations.problem(url);
    if (problem) throw new AppError('VALIDATION_FAILED', { detail: t(`validation.${problem}`) });
  }

  // ---------- events ----------

  /**
   * Queues `event` for every enabled endpoint of `userId` that takes it; answers how many. Pass the
   * transaction of the change the event reports: the deliveries then commit (or roll back) with it.
   */
  async emit(userId: number, event: WebhookEvent, data: unknown, trx?: Transaction<Database>): Promise<number> {
    const endpoints = await this.repo.subscribed(userId, event, trx);
    if (endpoints.length === 0) return 0;
    const now = iso(this.clock.now());
    const eventId = randomUUID();
    const body = JSON.stringify({ id: eventId, type: event, createdAt: now, data });
    await this.repo.insertDeliveries(
      endpoints.map((e) => ({ endpoint_id: e.id, event, event_id: eventId, body, status: 'pending' as const, next_attempt_at: now, created_at: now })),
      trx,
    );
    return endpoints.length;
  }

  /** `emit`, but only the first time for `key` (what the event is about, e.g. a static IP and its expiry). */
  async emitOnce(key: string, userId: number, event: WebhookEvent, data: unknown): Promise<number> {
    return this.db.transaction().execute(async (trx) => ((await this.repo.insertEventKey(key, iso(this.clock.now()), trx)) ? this.emit(userId, event, data, trx) : 0));
  }

  /** Users with an enabled endpoint for `event` (a job that looks for events asks only about them). */
  subscribers(event: WebhookEvent): Promise<number[]> {
    return this.repo.subscribers(event);
  }

  // ---------- the delivery job ----------

  /** One run of the delivery job: every delivery due now (up to a batch), a few at a time. Answers how many were tried. */
  async deliverDue(): Promise<number> {
    const nowMs = this.clock.now().getTime();
    if (nowMs - this.lastPrune >= PRUNE_EVERY_MS) {
      this.lastPrune = nowMs;
      await this.repo.prune(iso(new Date(nowMs - KEEP_DELIVERIES_MS)), iso(new Date(nowMs - KEEP_EVENT_KEYS_MS)));
    }
    const due = await this.repo.due(iso(new Date(nowMs)), BATCH);
    let tried = 0;
    for (let i = 0; i < due.length; i += PARALLEL) {
      const results = await Promise.all(due.slice(i, i + PARALLEL).map((d) => this.attempt(d)));
      tried += results.filter(Boolean).length;
    }
    return tried;
  }

  /** One attempt at a due delivery: taken (unless another runner has it), sent, and its outcome recorded. */
  private async attempt(d: DueDelivery): Promise<WebhookDeliveryRow | undefined> {
    const started = this.clock.now();
    if (!(await this.repo.claim(d.id, d.next_attempt_at!, iso(addMs(started, CLAIM_MS))))) return undefined;
    return this.send(d, started);
  }

  /** Sends a delivery this runner has taken, and records the outcome. */
  private async send(d: DueDelivery, started: Date): Promise<WebhookDeliveryRow | undefined> {
    let outcome: SendOutcome;
    try {
      outcome = await this.sender.send({ url: d.url, secret: this.box.open(d.secret_sealed), body: d.body, event: d.event, deliveryId: d.id, timestamp: Math.floor(started.getTime() / 1000) });
    } catch (err) {
      // A secret sealed under another APP_SECRET cannot be opened: nothing can be signed for this endpoint.
      outcome = { statusCode: null, response: null, error: `not sent: ${(err as Error).message}` };
    }
    const attempts = d.attempts + 1;
    const ok = outcome.statusCode !== null && outcome.statusCode >= 200 && outcome.statusCode < 300;
    const retryAt = addMs(started, retryWaitMs(attempts, outcome, started.getTime()));
    const giveUp = !ok && retryAt.getTime() > Date.parse(d.created_at) + RETRY_FOR_MS;
    const row = await this.repo.recordAttempt(d.id, {
      status: ok ? 'delivered' : giveUp ? 'failed' : 'pending',
      attempts,
      next_attempt_at: ok || giveUp ? null : iso(retryAt),
      last_attempt_at: iso(started),
      last_status_code: outcome.statusCode,
      last_response: outcome.response,
      last_error: ok ? null : (outcome.error ?? `answered ${outcome.statusCode}`),
      delivered_at: ok ? iso(this.clock.now()) : null,
    });
    // Never the secret or the signature.
    if (!ok) this.log[giveUp ? 'warn' : 'debug']({ delivery: d.id, endpoint: d.endpoint_id, event: d.event, attempts, status: outcome.statusCode, error: outcome.error }, giveUp ? 'webhook delivery failed for good' : 'webhook delivery failed, will retry');
    return row;
  }
}

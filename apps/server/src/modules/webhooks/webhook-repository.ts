import type { WebhookDeliveryStatus, WebhookEvent } from '@resi/contract';
import { type Insertable, type Kysely, type Selectable, type Transaction, sql } from 'kysely';
import type { Database, WebhookDeliveryTable, WebhookEndpointTable } from '../../db/schema';
import { inUserTransaction } from '../../db/user-lock';

type Trx = Transaction<Database>;
export type WebhookEndpointRow = Selectable<WebhookEndpointTable>;
export type WebhookDeliveryRow = Selectable<WebhookDeliveryTable>;
/** A delivery the job is to send: its row and where and how to send it. */
export type DueDelivery = WebhookDeliveryRow & { url: string; secret_sealed: string };

/** An endpoint's `events` holds `event` (the list is comma-separated; no event name is part of another). */
const subscribesTo = (event: WebhookEvent) => sql<boolean>`(',' || events || ',') like ${`%,${event},%`}`;

/** Customers' webhook endpoints, their deliveries (outbox and log) and the keys of events sent once only. */
export class WebhookRepository {
  constructor(private readonly db: Kysely<Database>) {}

  /** Inserts the endpoint unless its owner already has `max` (then undefined); parallel requests cannot both take the last place. */
  async insertEndpointWithin(row: Insertable<WebhookEndpointTable>, max: number): Promise<WebhookEndpointRow | undefined> {
    return inUserTransaction(this.db, row.user_id, async (trx) => {
      const { n } = await trx.selectFrom('webhook_endpoints').select((eb) => eb.fn.countAll<number>().as('n')).where('user_id', '=', row.user_id).executeTakeFirstOrThrow();
      if (Number(n) >= max) return undefined;
      return trx.insertInto('webhook_endpoints').values(row).returningAll().executeTakeFirstOrThrow();
    });
  }

  listEndpoints(userId: number): Promise<WebhookEndpointRow[]> {
    return this.db.selectFrom('webhook_endpoints').selectAll().where('user_id', '=', userId).orderBy('id', 'desc').execute();
  }

  /** The endpoint `id` of `userId`; undefined for anyone else's. */
  findEndpoint(id: number, userId: number): Promise<WebhookEndpointRow | undefined> {
    return this.db.selectFrom('webhook_endpoints').selectAll().where('id', '=', id).where('user_id', '=', userId).executeTakeFirst();
  }

  async updateEndpoint(id: number, userId: number, set: Partial<Pick<WebhookEndpointRow, 'url' | 'events' | 'enabled'>> & { updated_at: string }): Promise<WebhookEndpointRow | undefined> {
    return this.db.updateTable('webhook_endpoints').set(set).where('id', '=', id).where('user_id', '=', userId).returningAll().executeTakeFirst();
  }

  /** Deletes the endpoint of `userId` and its deliveries; false when there is none. */
  async deleteEndpoint(id: number, userId: number): Promise<boolean> {
    return this.db.transaction().execute(async (trx) => {
      const own = await trx.selectFrom('webhook_endpoints').select('id').where('id', '=', id).where('user_id', '=', userId).executeTakeFirst();
      if (!own) return false;
      await trx.deleteFrom('webhook_deliveries').where('endpoint_id', '=', id).execute();
      const res = await trx.deleteFrom('webhook_endpoints').where('id', '=', id).executeTakeFirst();
      return res.numDeletedRows === 1n;
    });
  }

  /** The user's enabled endpoints that take `event`. */
  subscribed(userId: number, event: WebhookEvent, trx?: Trx): Promise<Pick<WebhookEndpointRow, 'id'>[]> {
    return (trx ?? this.db).selectFrom('webhook_endpoints').select('id').where('user_id', '=', userId).where('enabled', '=', 1).where(subscribesTo(event)).orderBy('id').execute();
  }

  /** Users with at least one enabled endpoint that takes `event`. */
  async subscribers(event: WebhookEvent): Promise<number[]> {
    const rows = await this.db.selectFrom('webhook_endpoints').select('user_id').distinct().where('enabled', '=', 1).where(subscribesTo(event)).execute();
    return rows.map((r) => r.user_id);
  }

  async insertDeliveries(rows: Insertable<WebhookDeliveryTable>[], trx?: Trx): Promise<WebhookDeliveryRow[]> {
    if (rows.length === 0) return [];
    return (trx ?? this.db).insertInto('webhook_deliveries').values(rows).returningAll().execute();
  }

  /** An endpoint's deliveries, newest first. */
  async pageDeliveries(endpointId: number, q: { page: number; pageSize: number; status?: WebhookDeliveryStatus }): Promise<{ items: WebhookDeliveryRow[]; total: number }> {
    let base = this.db.selectFrom('webhook_deliveries').where('endpoint_id', '=', endpointId);
    if (q.status) base = base.where('status', '=', q.status);
    const { n } = await base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
    const items = await base
      .selectAll()
      .orderBy('id', 'desc')
      .limit(q.pageSize)
      .offset((q.page - 1) * q.pageSize)
      .execute();
    return { items, total: Number(n) };
  }

  findDelivery(id: number, endpointId: number): Promise<WebhookDeliveryRow | undefined> {
    return this.db.selectFrom('webhook_deliveries').selectAll().where('id', '=', id).where('endpoint_id', '=', endpointId).executeTakeFirst();
  }

  /** Pending deliveries due by `now`, oldest due first, with their endpoint's URL and sealed secret. */
  due(now: string, limit: number): Promise<DueDelivery[]> {
    return this.db
      .selectFrom('webhook_deliveries as d')
      .innerJoin('webhook_endpoints as e', 'e.id', 'd.endpoint_id')
      .selectAll('d')
      .select(['e.url', 'e.secret_sealed'])
      .where('d.status', '=', 'pending')
      .where('d.next_attempt_at', '<=', now)
      .orderBy('d.next_attempt_at')
      .orderBy('d.id')
      .limit(limit)
      .execute();
  }

  /**
   * Takes a pending delivery for one attempt: its next attempt moves to `until` (when another runner may
   * try it, should this one never report back). False when another runner took it first.
   */
  async claim(id: number, dueAt: string, until: string): Promise<boolean> {
    const res = await this.db.updateTable('webhook_deliveries').set({ next_attempt_at: until }).where('id', '=', id).where('status', '=', 'pending').where('next_attempt_at', '=', dueAt).executeTakeFirst();
    return res.numUpdatedRows === 1n;
  }

  /** What an attempt came to; only a delivery still pending changes. */
  async recordAttempt(
    id: number,
    set: Pick<WebhookDeliveryRow, 'status' | 'attempts' | 'next_attempt_at' | 'last_attempt_at' | 'last_status_code' | 'last_response' | 'last_error' | 'delivered_at'>,
  ): Promise<WebhookDeliveryRow | undefined> {
    return this.db.updateTable('webhook_deliveries').set(set).where('id', '=', id).where('status', '=', 'pending').returningAll().executeTakeFirst();
  }

  /** Records `key` once; false when it was recorded before (the event was emitted already). */
  async insertEventKey(key: string, at: string, trx: Trx): Promise<boolean> {
    const row = await trx.insertInto('webhook_event_keys').values({ event_key: key, created_at: at }).onConflict((oc) => oc.column('event_key').doNothing()).returning('event_key').executeTakeFirst();
    return row !== undefined;
  }

  /** Deletes finished deliveries and event keys older than the cut-offs; answers the deliveries deleted. */
  async prune(deliveriesBefore: string, keysBefore: string): Promise<number> {
    const res = await this.db.deleteFrom('webhook_deliveries').where('created_at', '<', deliveriesBefore).where('status', '<>', 'pending').executeTakeFirst();
    await this.db.deleteFrom('webhook_event_keys').where('created_at', '<', keysBefore).execute();
    return Number(res.numDeletedRows);
  }
}

import type { Insertable, Kysely, Selectable, Transaction, Updateable } from 'kysely';
import type { Database, PaymentEventTable } from '../../db/schema';

type Trx = Transaction<Database>;
export type PaymentEventRow = Selectable<PaymentEventTable>;

/** Payments as providers reported them (each provider's event once) and the review list made of them. */
export class PaymentEventRepository {
  constructor(private readonly db: Kysely<Database>) {}

  /** Inserts the event unless this provider's event id is already recorded: its new id, or undefined when it was. */
  async insertOnce(event: Insertable<PaymentEventTable>, trx?: Trx): Promise<number | undefined> {
    const row = await (trx ?? this.db)
      .insertInto('payment_events')
      .values(event)
      .onConflict((oc) => oc.columns(['provider', 'event_id']).doNothing())
      .returning('id')
      .executeTakeFirst();
    return row?.id;
  }

  async setOutcome(id: number, outcome: Pick<Updateable<PaymentEventTable>, 'result' | 'reason' | 'review_status'>, trx?: Trx): Promise<void> {
    await (trx ?? this.db).updateTable('payment_events').set(outcome).where('id', '=', id).execute();
  }

  async exists(provider: string, eventId: string): Promise<boolean> {
    const row = await this.db.selectFrom('payment_events').select('id').where('provider', '=', provider).where('event_id', '=', eventId).executeTakeFirst();
    return row !== undefined;
  }

  /** The review list, newest first. */
  async pageForReview(status: 'open' | 'resolved', page: number, pageSize: number): Promise<{ items: PaymentEventRow[]; total: number }> {
    const base = this.db.selectFrom('payment_events').where('review_status', '=', status);
    const { n } = await base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
    const items = await base
      .selectAll()
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .limit(pageSize)
      .offset((page - 1) * pageSize)
      .execute();
    return { items, total: Number(n) };
  }

  /** Closes an open review; undefined when it is unknown or already resolved. */
  resolve(id: number, by: number, now: string, trx?: Trx): Promise<PaymentEventRow | undefined> {
    return (trx ?? this.db)
      .updateTable('payment_events')
      .set({ review_status: 'resolved', resolved_at: now, resolved_by: by })
      .where('id', '=', id)
      .where('review_status', '=', 'open')
      .returningAll()
      .executeTakeFirst();
  }
}

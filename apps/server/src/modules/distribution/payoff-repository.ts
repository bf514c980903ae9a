import type { PayoffStatus } from '@resi/contract';
import { type Kysely, PostgresAdapter, type Selectable, type Transaction, sql } from 'kysely';
import type { Database, PayoffRequestTable } from '../../db/schema';

type Trx = Transaction<Database>;
/** Sums as the store answers them: a number, or a string or bigint for PostgreSQL's bigint sums. */
type Sum = string | number | bigint | null;
export type PayoffRow = Selectable<PayoffRequestTable> & { distributor_email: string; earned: Sum; earned_from_created: Sum };

const OPEN: PayoffStatus[] = ['pending', 'approved'];

/** Payoff requests (docs/business-rules.md#payoffs): every change of state is a conditional update. */
export class PayoffRepository {
  constructor(private readonly db: Kysely<Database>) {}

  /**
   * A request with what its distributor has earned in its currency (net of reversals, voided earnings not
   * counted), and the part of it from customers the distributor created themselves: the admin weighs
   * the request with it (docs/business-rules.md#payoffs).
   */
  private base(db: Kysely<Database> | Trx) {
    return db
      .selectFrom('payoff_requests as p')
      .innerJoin('users as d', 'd.id', 'p.distributor_id')
      .selectAll('p')
      .select('d.email as distributor_email')
      .select((eb) => [
        eb
          .selectFrom('commissions as c')
          .whereRef('c.distributor_id', '=', 'p.distributor_id')
          .whereRef('c.currency', '=', 'p.currency')
          .where('c.voided_at', 'is', null)
          .select((e) => e.fn.coalesce(e.fn.sum('c.amount'), sql.lit(0)).as('s'))
          .as('earned'),
        eb
          .selectFrom('commissions as c')
          .innerJoin('users as b', 'b.id', 'c.buyer_id')
          .whereRef('c.distributor_id', '=', 'p.distributor_id')
          .whereRef('b.created_by', '=', 'p.distributor_id')
          .whereRef('c.currency', '=', 'p.currency')
          .where('c.voided_at', 'is', null)
          .select((e) => e.fn.coalesce(e.fn.sum('c.amount'), sql.lit(0)).as('s'))
          .as('earned_from_created'),
      ]);
  }

  find(id: number, trx?: Trx): Promise<PayoffRow | undefined> {
    return this.base(trx ?? this.db).where('p.id', '=', id).executeTakeFirst();
  }

  /**
   * Serializes one distributor's requests on PostgreSQL by locking their user row for the transaction;
   * SQLite runs one write transaction at a time anyway. The unique index on open requests is the last guard.
   */
  async lockDistributor(distributorId: number, trx: Trx): Promise<void> {
    if (!(trx.getExecutor().adapter instanceof PostgresAdapter)) return;
    await trx.selectFrom('users').select('id').where('id', '=', distributorId).forUpdate().execute();
  }

  async hasOpen(distributorId: number, trx: Trx): Promise<boolean> {
    const row = await trx.selectFrom('payoff_requests').select('id').where('distributor_id', '=', distributorId).where('status', 'in', OPEN).executeTakeFirst();
    return row !== undefined;
  }

  async insert(row: Omit<Selectable<PayoffRequestTable>, 'id'>, trx: Trx): Promise<number> {
    const { id } = await trx.insertInto('payoff_requests').values(row).returning('id').executeTakeFirstOrThrow();
    return id;
  }

  /** Moves the request to `to` only from one of `from`; answers whether this call changed it. */
  async transition(
    id: number,
    from: PayoffStatus[],
    to: PayoffStatus,
    patch: { at: string; by: number; note?: string; txRef?: string },
    trx: Trx,
  ): Promise<boolean> {
    const stamp = to === 'approved' ? { approved_at: patch.at } : to === 'paid' ? { paid_at: patch.at } : to === 'rejected' ? { rejected_at: patch.at } : {};
    const res = await trx
      .updateTable('payoff_requests')
      .set({
        status: to,
        updated_at: patch.at,
        decided_by: patch.by,
        ...stamp,
        ...(patch.note !== undefined ? { note: patch.note } : {}),
        ...(patch.txRef !== undefined ? { tx_ref: patch.txRef } : {}),
      })
      .where('id', '=', id)
      .where('status', 'in', from)
      .executeTakeFirst();
    return Number(res.numUpdatedRows) > 0;
  }

  async page(filter: { distributorId?: number; status?: PayoffStatus }, page: number, pageSize: number): Promise<{ items: PayoffRow[]; total: number }> {
    let q = this.base(this.db);
    let c = this.db.selectFrom('payoff_requests as p');
    if (filter.distributorId !== undefined) {
      q = q.where('p.distributor_id', '=', filter.distributorId);
      c = c.where('p.distributor_id', '=', filter.distributorId);
    }
    if (filter.status !== undefined) {
      q = q.where('p.status', '=', filter.status);
      c = c.where('p.status', '=', filter.status);
    }
    const [items, count] = await Promise.all([
      q
        .orderBy('p.created_at', 'desc')
        .orderBy('p.id', 'desc')
        .limit(pageSize)
        .offset((page - 1) * pageSize)
        .execute(),
      c.select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow(),
    ]);
    return { items, total: Number(count.n) };
  }
}

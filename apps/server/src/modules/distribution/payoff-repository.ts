import type { PayoffStatus } from '@resi/contract';
import { type Kysely, PostgresAdapter, type Selectable, type Transaction } from 'kysely';
import type { Database, PayoffRequestTable } from '../../db/schema';

type Trx = Transaction<Database>;
export type PayoffRow = Selectable<PayoffRequestTable> & { distributor_email: string };

const OPEN: PayoffStatus[] = ['pending', 'approved'];

/** Payoff requests (docs/business-rules.md#payoffs): every change of state is a conditional update. */
export class PayoffRepository {
  constructor(private readonly db: Kysely<Database>) {}

  private base(db: Kysely<Database> | Trx) {
    return db.selectFrom('payoff_requests as p').innerJoin('users as d', 'd.id', 'p.distributor_id').selectAll('p').select('d.email as distributor_email');
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

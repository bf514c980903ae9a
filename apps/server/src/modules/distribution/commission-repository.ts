import { type Kysely, type Selectable, type Transaction, sql } from 'kysely';
import type { CommissionState } from '@resi/contract';
import type { CommissionTable, Database } from '../../db/schema';

type Trx = Transaction<Database>;
export type CommissionRow = Selectable<CommissionTable>;

/** The ledger's sums for one distributor and currency (docs/business-rules.md#commission). */
export interface LedgerSums {
  /** Earned, not voided, still inside the hold. */
  pending: number;
  /** Every row past its `available_at` and not voided: earnings out of the hold plus reversals. */
  matured: number;
  /** Open payoff requests (pending, approved). */
  held: number;
  /** Paid payoff requests. */
  paid: number;
}

const num = (v: unknown): number => Number(v ?? 0);

/** One ledger row with its order and buyer, and its state as of the query's `now`. */
export interface LedgerEntry {
  id: number;
  distributor_id: number;
  order_no: string;
  buyer_email: string;
  order_amount: number;
  rate: number;
  amount: number;
  currency: string;
  state: CommissionState;
  created_at: string;
  available_at: string;
  voided_at: string | null;
}

/** The commission ledger: rows are only ever added, or a pending earning voided; balances are sums of them. */
export class CommissionRepository {
  constructor(private readonly db: Kysely<Database>) {}

  /** Adds the order's earning; a second one for the same order inserts nothing (unique order × kind). Answers whether it inserted. */
  async addEarning(row: Omit<CommissionRow, 'id' | 'kind' | 'voided_at'>, trx: Trx): Promise<boolean> {
    const res = await trx
      .insertInto('commissions')
      .values({ ...row, kind: 'earn', voided_at: null })
      .onConflict((oc) => oc.columns(['order_id', 'kind']).doNothing())
      .executeTakeFirst();
    return Number(res.numInsertedOrUpdatedRows ?? 0) > 0;
  }

  earningOf(orderId: number, trx?: Trx): Promise<CommissionRow | undefined> {
    return (trx ?? this.db).selectFrom('commissions').selectAll().where('order_id', '=', orderId).where('kind', '=', 'earn').executeTakeFirst();
  }

  /** Voids the earning if it is still pending at `at` and not voided yet; answers whether it did. */
  async voidIfPending(id: number, at: string, trx: Trx): Promise<boolean> {
    const res = await trx.updateTable('commissions').set({ voided_at: at }).where('id', '=', id).where('voided_at', 'is', null).where('available_at', '>', at).executeTakeFirst();
    return Number(res.numUpdatedRows) > 0;
  }

  /** A negative row against an earning that had left its hold; one per order at most. */
  async addReversal(earning: CommissionRow, at: string, trx: Trx): Promise<void> {
    await trx
      .insertInto('commissions')
      .values({
        distributor_id: earning.distributor_id,
        order_id: earning.order_id,
        buyer_id: earning.buyer_id,
        kind: 'reversal',
        amount: -Number(earning.amount),
        currency: earning.currency,
        rate: earning.rate,
        available_at: at,
        voided_at: null,
        created_at: at,
      })
      .onConflict((oc) => oc.columns(['order_id', 'kind']).doNothing())
      .execute();
  }

  /** The ledger's and the payoffs' sums for a distributor in one currency, as of `now`. */
  async sums(distributorId: number, currency: string, now: string, trx?: Trx): Promise<LedgerSums> {
    const db = trx ?? this.db;
    const ledger = await db
      .selectFrom('commissions')
      .where('distributor_id', '=', distributorId)
      .where('currency', '=', currency)
      .where('voided_at', 'is', null)
      .select([
        sql<number>`coalesce(sum(case when available_at > ${now} then amount else 0 end), 0)`.as('pending'),
        sql<number>`coalesce(sum(case when available_at <= ${now} then amount else 0 end), 0)`.as('matured'),
      ])
      .executeTakeFirstOrThrow();
    const payoffs = await db
      .selectFrom('payoff_requests')
      .where('distributor_id', '=', distributorId)
      .where('currency', '=', currency)
      .select([
        sql<number>`coalesce(sum(case when status in ('pending', 'approved') then amount else 0 end), 0)`.as('held'),
        sql<number>`coalesce(sum(case when status = 'paid' then amount else 0 end), 0)`.as('paid'),
      ])
      .executeTakeFirstOrThrow();
    return { pending: num(ledger.pending), matured: num(ledger.matured), held: num(payoffs.held), paid: num(payoffs.paid) };
  }

  /** One page of the ledger, newest first; `distributorId` null is everyone's. */
  async page(
    filter: { distributorId: number | null; state?: CommissionState },
    now: string,
    page: number,
    pageSize: number,
  ): Promise<{ items: LedgerEntry[]; total: number }> {
    let q = this.db.selectFrom('commissions as c');
    if (filter.distributorId !== null) q = q.where('c.distributor_id', '=', filter.distributorId);
    // An earning a refund took back after its hold: it shows as reversed beside its negative row, not as
    // money still available (the sums are unchanged: the two rows cancel out).
    const takenBack = sql<boolean>`exists (select 1 from commissions r where r.order_id = c.order_id and r.kind = 'reversal')`;
    switch (filter.state) {
      case 'reversed':
        q = q.where((eb) => eb.or([eb('c.kind', '=', 'reversal'), eb.and([eb('c.kind', '=', 'earn'), takenBack])]));
        break;
      case 'voided':
        q = q.where('c.kind', '=', 'earn').where('c.voided_at', 'is not', null);
        break;
      case 'pending':
        q = q.where('c.kind', '=', 'earn').where('c.voided_at', 'is', null).where('c.available_at', '>', now);
        break;
      case 'available':
        q = q.where('c.kind', '=', 'earn').where('c.voided_at', 'is', null).where('c.available_at', '<=', now).where(sql<boolean>`not ${takenBack}`);
        break;
    }
    const [rows, count] = await Promise.all([
      q
        .innerJoin('orders as o', 'o.id', 'c.order_id')
        .innerJoin('users as b', 'b.id', 'c.buyer_id')
        .select([
          'c.id',
          'c.distributor_id',
          'o.order_no',
          'b.email as buyer_email',
          'o.amount as order_amount',
          'c.rate',
          'c.amount',
          'c.currency',
          'c.kind',
          'c.created_at',
          'c.available_at',
          'c.voided_at',
          takenBack.as('taken_back'),
        ])
        .orderBy('c.created_at', 'desc')
        .orderBy('c.id', 'desc')
        .limit(pageSize)
        .offset((page - 1) * pageSize)
        .execute(),
      q.select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow(),
    ]);
    const items = rows.map(({ kind, taken_back, ...r }): LedgerEntry => {
      // SQLite answers the exists as 0/1, PostgreSQL as a boolean.
      const reversed = kind === 'reversal' || Boolean(Number(taken_back));
      const state: CommissionState = reversed ? 'reversed' : r.voided_at !== null ? 'voided' : r.available_at > now ? 'pending' : 'available';
      return { ...r, order_amount: num(r.order_amount), rate: num(r.rate), amount: num(r.amount), state };
    });
    return { items, total: num(count.n) };
  }
}

import { type Kysely, PostgresAdapter, type Transaction } from 'kysely';
import type { Database } from '../../db/schema';
import { type Clock, iso } from '../../lib/clock';
import { balanceQuery } from '../../modules/traffic/traffic-repository';
import type { BudgetSubject, ReservationStore } from '../ports';

/** A row stops counting this long after the gateway last said it is alive (it does every few seconds). */
export const RESERVATION_TTL_MS = 30_000;

/**
 * Shared byte budgets in the store (docs/gateway.md): `gateway_reservations` holds, per gateway process
 * and budget, the bytes reserved and not yet billed. A reservation is granted from the budget's figure
 * minus every live row, the budget's own row locked first on PostgreSQL so two gateways asking at once
 * are answered one after the other (SQLite runs one transaction at a time anyway).
 */
export class ReservationRepository implements ReservationStore {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly clock: Clock,
  ) {}

  async reserve(gatewayId: string, subject: BudgetSubject, want: number): Promise<number> {
    return this.db.transaction().execute(async (trx) => {
      const now = this.clock.now();
      const free = await this.free(trx, subject, iso(now));
      const granted = Math.max(0, Math.min(want, free));
      if (granted === 0) return 0;
      const expires = iso(new Date(now.getTime() + RESERVATION_TTL_MS));
      await trx
        .insertInto('gateway_reservations')
        .values({ gateway_id: gatewayId, kind: subject.kind, subject_id: subject.id, bytes: granted, expires_at: expires })
        .onConflict((oc) =>
          oc.columns(['gateway_id', 'kind', 'subject_id']).doUpdateSet((eb) => ({
            bytes: eb('gateway_reservations.bytes', '+', granted),
            expires_at: expires,
          })),
        )
        .execute();
      return granted;
    });
  }

  async release(gatewayId: string, subject: BudgetSubject, bytes: number): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      await this.takeOut(trx, gatewayId, subject, bytes);
    });
  }

  /**
   * Takes billed or handed-back bytes out of a gateway's row (never below zero: bytes carried beyond a
   * reservation are billed too); an emptied row goes. Usage batches call it in their own transaction.
   */
  async takeOut(trx: Transaction<Database>, gatewayId: string, subject: BudgetSubject, bytes: number): Promise<void> {
    const row = trx.selectFrom('gateway_reservations').where('gateway_id', '=', gatewayId).where('kind', '=', subject.kind).where('subject_id', '=', subject.id);
    const held = await row.select('bytes').executeTakeFirst();
    if (!held) return;
    if (Number(held.bytes) <= bytes) {
      await trx.deleteFrom('gateway_reservations').where('gateway_id', '=', gatewayId).where('kind', '=', subject.kind).where('subject_id', '=', subject.id).execute();
    } else {
      await trx
        .updateTable('gateway_reservations')
        .set((eb) => ({ bytes: eb('bytes', '-', bytes) }))
        .where('gateway_id', '=', gatewayId)
        .where('kind', '=', subject.kind)
        .where('subject_id', '=', subject.id)
        .execute();
    }
  }

  async keepAlive(gatewayId: string): Promise<void> {
    const expires = iso(new Date(this.clock.now().getTime() + RESERVATION_TTL_MS));
    await this.db.updateTable('gateway_reservations').set({ expires_at: expires }).where('gateway_id', '=', gatewayId).execute();
  }

  async dropAll(gatewayId: string): Promise<void> {
    await this.db.deleteFrom('gateway_reservations').where('gateway_id', '=', gatewayId).execute();
  }

  /** What the budget may still grant: its figure in the store minus every live reservation of it. */
  private async free(trx: Transaction<Database>, subject: BudgetSubject, now: string): Promise<number> {
    const pg = trx.getExecutor().adapter instanceof PostgresAdapter;
    const reserved = trx
      .selectFrom('gateway_reservations')
      .select((eb) => eb.fn.coalesce(eb.fn.sum<number>('bytes'), eb.lit(0)).as('r'))
      .where('kind', '=', subject.kind)
      .where('subject_id', '=', subject.id)
      .where('expires_at', '>', now);
    if (subject.kind === 'account') {
      let q = trx
        .selectFrom('proxy_accounts')
        .select(['limit_bytes', 'used_bytes', 'pause_at_cap'])
        .select(reserved.as('reserved'))
        .where('id', '=', subject.id);
      if (pg) q = q.forUpdate();
      const a = await q.executeTakeFirst();
      if (!a) return 0;
      return a.limit_bytes === null || !a.pause_at_cap ? Infinity : Number(a.limit_bytes) - Number(a.used_bytes) - Number(a.reserved);
    }
    if (pg) await trx.selectFrom('users').select('id').where('id', '=', subject.id).forUpdate().execute();
    // The balance by the one formula (traffic-repository.ts), as the account cache reads it.
    const b = await balanceQuery(trx, now).select(reserved.as('reserved')).where('user_id', '=', subject.id).executeTakeFirst();
    if (!b) return 0;
    return Number(b.left) - Number(b.reserved);
  }
}

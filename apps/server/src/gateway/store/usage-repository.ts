import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../../db/schema';
import { type Clock, iso } from '../../lib/clock';
import type { UsageDelta, UsageSink } from '../ports';
import type { ReservationRepository } from './reservation-repository';

/**
 * Writes the gateway's metered bytes (docs/gateway.md#metering): hourly usage rows and their daily roll-up, the proxy account's used bytes,
 * the owner's traffic grants, earliest expiry first (not for a static IP's bytes), and the bytes per provider — all in one transaction, keyed by the batch's
 * `(gatewayId, seq)` so a retried batch is applied once.
 */
export class UsageRepository implements UsageSink {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly clock: Clock,
    private readonly onOverrun: (userId: number, bytes: number) => void = () => undefined,
    /** Shared byte budgets: a batch's bytes leave the gateway's reservations as they are billed. */
    private readonly reservations?: ReservationRepository,
  ) {}

  async flush(gatewayId: string, seq: number, deltas: UsageDelta[]): Promise<void> {
    if (deltas.length === 0) return;
    await this.db.transaction().execute(async (trx) => {
      const now = iso(this.clock.now());
      const claimed = await trx
        .insertInto('usage_flushes')
        .values({ gateway_id: gatewayId, seq, created_at: now })
        .onConflict((oc) => oc.columns(['gateway_id', 'seq']).doNothing())
        .returning('seq')
        .executeTakeFirst();
      if (!claimed) return;

      // Rows are locked in one order (see the phases below) so two gateways' concurrent batches on
      // PostgreSQL wait for each other instead of deadlocking.
      const ordered = [...deltas].sort((a, b) => a.accountId - b.accountId || cmp(a.country ?? '', b.country ?? '') || cmp(a.hour, b.hour));
      const perUser = new Map<number, number>();
      const perAccount = new Map<number, number>();
      const perDay = new Map<string, { userId: number; day: string; country: string; up: number; down: number }>();
      for (const d of ordered) {
        const bytes = d.bytesUp + d.bytesDown;
        if (bytes <= 0) continue;
        await trx
          .insertInto('usage_hourly')
          .values({ account_id: d.accountId, user_id: d.userId, hour: d.hour, country: d.country ?? '', bytes_up: d.bytesUp, bytes_down: d.bytesDown })
          .onConflict((oc) =>
            oc.columns(['account_id', 'hour', 'country']).doUpdateSet((eb) => ({
              bytes_up: eb('usage_hourly.bytes_up', '+', eb.ref('excluded.bytes_up')),
              bytes_down: eb('usage_hourly.bytes_down', '+', eb.ref('excluded.bytes_down')),
            })),
          )
          .execute();
        // A static IP is sold per day: its bytes are charted and counted on its login, never taken from grants.
        if (!d.noBalance) perUser.set(d.userId, (perUser.get(d.userId) ?? 0) + bytes);
        perAccount.set(d.accountId, (perAccount.get(d.accountId) ?? 0) + bytes);
        const key = `${d.userId}|${d.hour.slice(0, 10)}|${d.country ?? ''}`;
        const day = perDay.get(key) ?? { userId: d.userId, day: d.hour.slice(0, 10), country: d.country ?? '', up: 0, down: 0 };
        day.up += d.bytesUp;
        day.down += d.bytesDown;
        perDay.set(key, day);
      }
      // Each kind of row in its own phase, each phase in one order (hourly rows, accounts by id, daily rows by
      // user, day and country, then grants by user): a batch that took an account's row before another
      // batch's hourly row of that account would deadlock with it on PostgreSQL.
      for (const [accountId, bytes] of [...perAccount].sort(([a], [b]) => a - b)) {
        await trx
          .updateTable('proxy_accounts')
          .set((eb) => ({ used_bytes: eb('used_bytes', '+', bytes) }))
          .where('id', '=', accountId)
          .execute();
      }
      const days = [...perDay.values()].sort((a, b) => a.userId - b.userId || cmp(a.day, b.day) || cmp(a.country, b.country));
      for (const d of days) {
        await trx
          .insertInto('usage_daily')
          .values({ day: d.day, user_id: d.userId, country: d.country, bytes_up: d.up, bytes_down: d.down })
          .onConflict((oc) =>
            oc.columns(['day', 'user_id', 'country']).doUpdateSet((eb) => ({
              bytes_up: eb('usage_daily.bytes_up', '+', eb.ref('excluded.bytes_up')),
              bytes_down: eb('usage_daily.bytes_down', '+', eb.ref('excluded.bytes_down')),
            })),
          )
          .execute();
      }
      const users = [...perUser].sort(([a], [b]) => a - b);
      const revenue = new Map<number, number>();
      for (const [userId, bytes] of users) revenue.set(userId, await this.consume(trx, userId, bytes, now));
      await this.perProvider(trx, ordered, perUser, revenue);
      if (!this.reservations) return;
      // Billed now, so no longer only reserved: in this transaction, or another gateway could count them twice.
      for (const [id, bytes] of perAccount) await this.reservations.takeOut(trx, gatewayId, { kind: 'account', id }, bytes);
      for (const [id, bytes] of users) await this.reservations.takeOut(trx, gatewayId, { kind: 'user', id }, bytes);
    });
  }

  /**
   * Takes `bytes` from the user's live grants, the one expiring first first. Another gateway's batch may
   * charge the same grants at the same time (PostgreSQL runs them concurrently; the rows read here can
   * be stale by the time they are written), so each charge applies only while the grant still has room
   * — `used_bytes + take <= bytes`, checked on the row as it is when the write gets it — and otherwise
   * the grants are read again.
   */
  private async consume(trx: Transaction<Database>, userId: number, bytes: number, now: string): Promise<number> {
    let left = bytes;
    let first: number | undefined;
    let revenueMicro = 0;
    for (let stale = true; stale && left > 0; ) {
      stale = false;
      const grants = await trx
        .selectFrom('traffic_grants as g')
        .leftJoin('orders as o', 'o.id', 'g.order_id')
        .select(['g.id', 'g.bytes', 'g.used_bytes', 'o.amount'])
        .where('g.user_id', '=', userId)
        .where('g.expires_at', '>', now)
        .orderBy('g.expires_at')
        .orderBy('g.id')
        .execute();
      first = grants[0]?.id;
      for (const g of grants) {
        if (left <= 0) break;
        const take = Math.min(left, Number(g.bytes) - Number(g.used_bytes));
        if (take <= 0) continue;
        const charged = await trx
          .updateTable('traffic_grants')
          .set((eb) => ({ used_bytes: eb('used_bytes', '+', take) }))
          .where('id', '=', g.id)
          .where((eb) => eb('used_bytes', '<=', eb('bytes', '-', take)))
          .executeTakeFirst();
        if (Number(charged.numUpdatedRows) === 0) {
          stale = true;
          break;
        }
        left -= take;
        // What the customer paid for these bytes: the package's price per byte (a grant without an order was given, not sold).
        revenueMicro += (take * Number(g.amount ?? 0) * 1_000_000) / Number(g.bytes);
      }
    }
    if (left > 0) {
      // Traffic carried between the last balance check and the cut-off: charged to the grant that
      // expires first (used beyond its size) so the record shows it, and reported.
      if (first !== undefined) {
        await trx
          .updateTable('traffic_grants')
          .set((eb) => ({ used_bytes: eb('used_bytes', '+', left) }))
          .where('id', '=', first)
          .execute();
      }
      this.onOverrun(userId, left);
    }
    return revenueMicro;
  }

  /**
   * Bytes per provider, exit country and day (docs/gateway.md#providers), with their revenue: a user's revenue
   * of this batch shared among the user's deltas by bytes. Written in the batch's transaction, from the same
   * deltas, so they never drift from what the customer was billed; in key order, like the other phases.
   */
  private async perProvider(trx: Transaction<Database>, ordered: UsageDelta[], billed: Map<number, number>, revenue: Map<number, number>): Promise<void> {
    const rows = new Map<string, { day: string; providerId: number; country: string; bytes: number; revenue: number }>();
    for (const d of ordered) {
      const bytes = d.bytesUp + d.bytesDown;
      if (d.providerId === undefined || bytes <= 0) continue;
      const key = `${d.hour.slice(0, 10)}|${d.providerId}|${d.country ?? ''}`;
      const row = rows.get(key) ?? { day: d.hour.slice(0, 10), providerId: d.providerId, country: d.country ?? '', bytes: 0, revenue: 0 };
      row.bytes += bytes;
      if (!d.noBalance) row.revenue += ((revenue.get(d.userId) ?? 0) * bytes) / billed.get(d.userId)!;
      rows.set(key, row);
    }
    const sorted = [...rows.values()].sort((a, b) => cmp(a.day, b.day) || a.providerId - b.providerId || cmp(a.country, b.country));
    for (const r of sorted) {
      // Millionths of a minor unit: a 10 GB package's price per byte is a few millionths, and a batch's share is rounded once.
      const revenue_micro = Math.round(r.revenue);
      await trx
        .insertInto('provider_usage_daily')
        .values({ day: r.day, provider_id: r.providerId, country: r.country, bytes: r.bytes, revenue_micro })
        .onConflict((oc) =>
          oc.columns(['day', 'provider_id', 'country']).doUpdateSet((eb) => ({
            bytes: eb('provider_usage_daily.bytes', '+', eb.ref('excluded.bytes')),
            revenue_micro: eb('provider_usage_daily.revenue_micro', '+', eb.ref('excluded.revenue_micro')),
          })),
        )
        .execute();
    }
  }
}

function cmp(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

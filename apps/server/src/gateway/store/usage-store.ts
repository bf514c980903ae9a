import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../../db/schema';
import { type Clock, iso } from '../../lib/clock';
import type { UsageDelta, UsageSink } from '../ports';

/**
 * Writes the gateway's metered bytes (DESIGN §6): hourly usage rows, the proxy account's used bytes and
 * the owner's traffic grants, earliest expiry first — all in one transaction, keyed by the batch's
 * `(gatewayId, seq)` so a retried batch is applied once.
 */
export class UsageStore implements UsageSink {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly clock: Clock,
    private readonly onOverrun: (userId: number, bytes: number) => void = () => undefined,
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

      const perUser = new Map<number, number>();
      for (const d of deltas) {
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
        await trx
          .updateTable('proxy_accounts')
          .set((eb) => ({ used_bytes: eb('used_bytes', '+', bytes) }))
          .where('id', '=', d.accountId)
          .execute();
        perUser.set(d.userId, (perUser.get(d.userId) ?? 0) + bytes);
      }
      for (const [userId, bytes] of perUser) await this.consume(trx, userId, bytes, now);
    });
  }

  /** Takes `bytes` from the user's live grants, the one expiring first first. */
  private async consume(trx: Transaction<Database>, userId: number, bytes: number, now: string): Promise<void> {
    const grants = await trx
      .selectFrom('traffic_grants')
      .select(['id', 'bytes', 'used_bytes'])
      .where('user_id', '=', userId)
      .where('expires_at', '>', now)
      .orderBy('expires_at')
      .orderBy('id')
      .execute();
    let left = bytes;
    for (const g of grants) {
      if (left <= 0) break;
      const take = Math.min(left, Number(g.bytes) - Number(g.used_bytes));
      if (take <= 0) continue;
      await trx
        .updateTable('traffic_grants')
        .set((eb) => ({ used_bytes: eb('used_bytes', '+', take) }))
        .where('id', '=', g.id)
        .execute();
      left -= take;
    }
    if (left > 0) {
      // Traffic carried between the last balance check and the cut-off: charged to the grant that
      // expires first (used beyond its size) so the record shows it, and reported.
      const first = grants[0];
      if (first) {
        await trx
          .updateTable('traffic_grants')
          .set((eb) => ({ used_bytes: eb('used_bytes', '+', left) }))
          .where('id', '=', first.id)
          .execute();
      }
      this.onOverrun(userId, left);
    }
  }
}

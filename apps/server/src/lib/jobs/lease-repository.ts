import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema';
import { addMs, iso } from '../clock';

/**
 * The `job_leases` rows: who may do a named thing until when. Taking a lease is one statement, an insert
 * that on conflict updates the row only when the lease is free (expired) or, for `hold`, already the
 * caller's; the store decides between two processes asking at once, and the answer says who won.
 */
export class LeaseRepository {
  constructor(private readonly db: Kysely<Database>) {}

  /** Takes `name` for `holder` until `now + ttlMs`, or renews it when `holder` has it already; true while `holder` holds it. */
  hold(name: string, holder: string, now: Date, ttlMs: number): Promise<boolean> {
    return this.claim(name, holder, now, ttlMs, true);
  }

  /** Takes `name` for `holder` until `now + ttlMs` only when nobody holds it, the caller included; true when taken. */
  take(name: string, holder: string, now: Date, ttlMs: number): Promise<boolean> {
    return this.claim(name, holder, now, ttlMs, false);
  }

  /** Gives `name` up at once, when `holder` still has it, so that another process need not wait for it to expire. */
  async release(name: string, holder: string): Promise<void> {
    await this.db.deleteFrom('job_leases').where('name', '=', name).where('holder', '=', holder).execute();
  }

  /** Removes the expired leases whose names start with `prefix` (one-off leases would otherwise pile up). */
  async sweep(prefix: string, now: Date): Promise<void> {
    await this.db.deleteFrom('job_leases').where('name', 'like', `${prefix}%`).where('expires_at', '<=', iso(now)).execute();
  }

  /** Who holds `name` at `now`, if anyone. */
  async holderOf(name: string, now: Date): Promise<string | null> {
    const row = await this.db.selectFrom('job_leases').select('holder').where('name', '=', name).where('expires_at', '>', iso(now)).executeTakeFirst();
    return row?.holder ?? null;
  }

  private async claim(name: string, holder: string, now: Date, ttlMs: number, renew: boolean): Promise<boolean> {
    const until = iso(addMs(now, ttlMs));
    const result = await this.db
      .insertInto('job_leases')
      .values({ name, holder, expires_at: until })
      .onConflict((oc) =>
        oc
          .column('name')
          .doUpdateSet({ holder, expires_at: until })
          .where((eb) => {
            const free = eb('job_leases.expires_at', '<=', iso(now));
            return renew ? eb.or([free, eb('job_leases.holder', '=', holder)]) : free;
          }),
      )
      .executeTakeFirst();
    return Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
  }
}

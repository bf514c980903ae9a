import type { StaticProxyQuery } from '@resi/contract';
import { type Kysely, type Selectable, type Transaction, sql } from 'kysely';
import type { Database, StaticAllocationTable } from '../../db/schema';

type Trx = Transaction<Database>;
export type AllocationRow = Selectable<StaticAllocationTable>;

/** An allocation with what the customer sees of it: its exit, region, login and ISP. */
export interface AllocationView extends AllocationRow {
  exit_ip: string;
  region_en: string;
  region_zh_cn: string;
  region_zh: string;
  business_en: string;
  business_zh_cn: string;
  business_zh: string;
  isp: string | null;
  country: string;
  city: string | null;
  username: string;
  password_sealed: string;
}

/** Static allocations: a customer's static IPs and their logins (proxy accounts of kind `static`). */
export class StaticAllocationRepository {
  constructor(private readonly db: Kysely<Database>) {}

  /**
   * The login of a new allocation; null when the username is taken (by anyone, rotating or static: one
   * unique key), so the caller draws another name. No exception, so a PostgreSQL transaction goes on.
   */
  async insertLogin(r: { userId: number; username: string; passwordSealed: string; now: string }, trx: Trx): Promise<number | null> {
    const row = await trx
      .insertInto('proxy_accounts')
      .values({
        user_id: r.userId,
        username: r.username,
        password_sealed: r.passwordSealed,
        status: 'active',
        limit_bytes: null,
        kind: 'static',
        remark: null,
        deleted_at: null,
        created_at: r.now,
        updated_at: r.now,
      })
      .onConflict((oc) => oc.column('username').doNothing())
      .returning('id')
      .executeTakeFirst();
    return row?.id ?? null;
  }

  async insert(a: Omit<AllocationRow, 'id' | 'status' | 'released_at' | 'remark'>, trx: Trx): Promise<number> {
    const row = await trx.insertInto('static_allocations').values(a).returning('id').executeTakeFirstOrThrow();
    return row.id;
  }

  private view(trx?: Trx) {
    return (trx ?? this.db)
      .selectFrom('static_allocations as s')
      .innerJoin('static_inventory as i', 'i.id', 's.inventory_id')
      .innerJoin('static_regions as r', 'r.id', 's.region_id')
      .innerJoin('proxy_accounts as a', 'a.id', 's.account_id')
      .innerJoin('businesses as b', 'b.id', 's.business_id')
      .selectAll('s')
      .select(['i.exit_ip', 'i.isp', 'r.country', 'r.city', 'a.username', 'a.password_sealed'])
      .select(['r.name_en as region_en', 'r.name_zh_cn as region_zh_cn', 'r.name_zh as region_zh', 'b.name_en as business_en', 'b.name_zh_cn as business_zh_cn', 'b.name_zh as business_zh']);
  }

  /** `expiresBy`: only allocations not released whose expiry is before it. */
  async pageForUser(userId: number, q: StaticProxyQuery, expiresBy?: string): Promise<{ items: AllocationView[]; total: number }> {
    let base = this.db.selectFrom('static_allocations as s').where('s.user_id', '=', userId);
    let rows = this.view().where('s.user_id', '=', userId);
    if (q.status) {
      base = base.where('s.status', '=', q.status);
      rows = rows.where('s.status', '=', q.status);
    }
    if (expiresBy) {
      base = base.where('s.status', '<>', 'released').where('s.expires_at', '<=', expiresBy);
      rows = rows.where('s.status', '<>', 'released').where('s.expires_at', '<=', expiresBy);
    }
    const { n } = await base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
    const items = await rows
      .orderBy('s.expires_at')
      .orderBy('s.id')
      .limit(q.pageSize)
      .offset((q.page - 1) * q.pageSize)
      .execute();
    return { items, total: Number(n) };
  }

  /** The allocations with these ids, whoever holds them (the caller checks the owner). */
  byIds(ids: number[], trx?: Trx): Promise<AllocationView[]> {
    return this.view(trx).where('s.id', 'in', ids).orderBy('s.id').execute();
  }

  /** Expiry moved to `expiresAt` and the allocation active again (a renewal); false when it was released meanwhile. */
  async extend(id: number, expiresAt: string, now: string, trx: Trx): Promise<boolean> {
    const res = await trx
      .updateTable('static_allocations')
      .set({ expires_at: expiresAt, status: 'active', updated_at: now })
      .where('id', '=', id)
      .where('status', '<>', 'released')
      .executeTakeFirst();
    return res.numUpdatedRows === 1n;
  }

  /** Active allocations of these users whose expiry is after `after` and no later than `by` (the `static.expiring` webhook). */
  expiringFor(userIds: number[], after: string, by: string): Promise<AllocationView[]> {
    if (userIds.length === 0) return Promise.resolve([]);
    return this.view().where('s.user_id', 'in', userIds).where('s.status', '=', 'active').where('s.expires_at', '>', after).where('s.expires_at', '<=', by).orderBy('s.id').execute();
  }

  /** The allocations a purchase order made that are not released yet. */
  heldByOrder(orderId: number, trx?: Trx): Promise<AllocationView[]> {
    return this.view(trx).where('s.order_id', '=', orderId).where('s.status', '<>', 'released').orderBy('s.id').execute();
  }

  /** These allocations released (a refund); answers the ones this call released. */
  async release(ids: number[], now: string, trx: Trx): Promise<AllocationRow[]> {
    if (ids.length === 0) return [];
    return trx
      .updateTable('static_allocations')
      .set({ status: 'released', released_at: now, updated_at: now })
      .where('id', 'in', ids)
      .where('status', '<>', 'released')
      .returningAll()
      .execute();
  }

  /** Expiry moved back to `expiresAt` (a refunded renewal); false when it was released meanwhile. */
  async moveExpiry(id: number, expiresAt: string, now: string, trx: Trx): Promise<boolean> {
    const res = await trx
      .updateTable('static_allocations')
      .set({ expires_at: expiresAt, updated_at: now })
      .where('id', '=', id)
      .where('status', '<>', 'released')
      .executeTakeFirst();
    return res.numUpdatedRows === 1n;
  }

  /** Replacements recorded for each allocation since `since` (the inventory history keeps them). */
  async replacementsSince(allocationIds: number[], since: string, trx?: Trx): Promise<Map<number, number>> {
    if (allocationIds.length === 0) return new Map();
    const rows = await (trx ?? this.db)
      .selectFrom('static_inventory_events')
      .select(['allocation_id', (eb) => eb.fn.countAll<number>().as('n')])
      .where('event', '=', 'replaced')
      .where('allocation_id', 'in', allocationIds)
      .where('at', '>', since)
      .groupBy('allocation_id')
      .execute();
    return new Map(rows.map((r) => [r.allocation_id!, Number(r.n)]));
  }

  /**
   * Bytes (up and down) each static login carried since `since`, and since `today` (a later hour): the
   * metered usage_hourly rows of those proxy accounts.
   */
  async usageSince(accountIds: number[], since: string, today: string, trx?: Trx): Promise<Map<number, { today: number; total: number }>> {
    if (accountIds.length === 0) return new Map();
    const bytes = sql<number>`u.bytes_up + u.bytes_down`;
    const rows = await (trx ?? this.db)
      .selectFrom('usage_hourly as u')
      .select([
        'u.account_id',
        (eb) => eb.fn.sum<number>(bytes).as('total'),
        (eb) => eb.fn.sum<number>(eb.case().when('u.hour', '>=', today).then(bytes).else(0).end()).as('today'),
      ])
      .where('u.account_id', 'in', accountIds)
      .where('u.hour', '>=', since)
      .groupBy('u.account_id')
      .execute();
    // PostgreSQL answers sums of bigint as numeric strings.
    return new Map(rows.map((r) => [r.account_id, { today: Number(r.today), total: Number(r.total) }]));
  }

  /** Active allocations past their expiry enter grace; answers them. */
  async enterGrace(now: string, trx: Trx): Promise<AllocationRow[]> {
    return trx
      .updateTable('static_allocations')
      .set({ status: 'grace', updated_at: now })
      .where('status', '=', 'active')
      .where('expires_at', '<=', now)
      .returningAll()
      .execute();
  }

  /** Grace allocations that expired before `expiredBefore` (their grace is over) are released; answers them. */
  async releaseAfterGrace(expiredBefore: string, now: string, trx: Trx): Promise<AllocationRow[]> {
    return trx
      .updateTable('static_allocations')
      .set({ status: 'released', released_at: now, updated_at: now })
      .where('status', '=', 'grace')
      .where('expires_at', '<=', expiredBefore)
      .returningAll()
      .execute();
  }

  /** The allocation on an inventory row, released (the row was retired); undefined when none held it. */
  async releaseOnRow(inventoryId: number, now: string, trx: Trx): Promise<AllocationRow | undefined> {
    return trx
      .updateTable('static_allocations')
      .set({ status: 'released', released_at: now, updated_at: now })
      .where('inventory_id', '=', inventoryId)
      .where('status', '<>', 'released')
      .returningAll()
      .executeTakeFirst();
  }

  /** The owner's note; false when the owner has no such allocation. */
  async setRemark(userId: number, id: number, remark: string | null, now: string): Promise<boolean> {
    const res = await this.db.updateTable('static_allocations').set({ remark, updated_at: now }).where('id', '=', id).where('user_id', '=', userId).executeTakeFirst();
    return res.numUpdatedRows === 1n;
  }

  /** Moves an allocation to another inventory row if it is still on `from`; false when another change came first. */
  async moveTo(id: number, from: number, to: number, now: string, trx: Trx): Promise<boolean> {
    const res = await trx
      .updateTable('static_allocations')
      .set({ inventory_id: to, updated_at: now })
      .where('id', '=', id)
      .where('inventory_id', '=', from)
      .where('status', '=', 'active')
      .executeTakeFirst();
    return res.numUpdatedRows === 1n;
  }
}

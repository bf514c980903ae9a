import type { StaticInventoryDto, StaticInventoryEvent, StaticInventoryQuery } from '@resi/contract';
import { type Kysely, PostgresAdapter, type RawBuilder, type Selectable, type Transaction, sql } from 'kysely';
import type { Database, StaticInventoryEventTable, StaticInventoryTable } from '../../db/schema';
import { type Clock, iso } from '../../lib/clock';
import type { SealedBox } from '../../lib/sealed-box';
import type { ParsedUpstream } from './inventory-lines';

type Row = Selectable<StaticInventoryTable>;
type Trx = Transaction<Database>;
type EventInput = Pick<StaticInventoryEventTable, 'event'> & Partial<Pick<StaticInventoryEventTable, 'user_id' | 'allocation_id' | 'order_id' | 'actor_id' | 'reason'>>;

/**
 * The row `i` may serve the business line: it lists that line, or lists none (then it serves them all).
 * `line` is a value or a column reference (`sql.ref('bz.id')`).
 */
export const servesLine = (line: number | ReturnType<typeof sql.ref>) =>
  sql<boolean>`(not exists (select 1 from static_inventory_businesses b where b.inventory_id = i.id) or exists (select 1 from static_inventory_businesses b where b.inventory_id = i.id and b.business_id = ${line}))`;

/**
 * The row `i` can be taken now: free, or reserved by an order that can no longer be paid by its customer
 * (cancelled, expired, or pending past its time), whose reservation simply has not been tidied up yet.
 */
export const takeable = (now: string) =>
  sql<boolean>`(i.status = 'free' or (i.status = 'reserved' and not exists (select 1 from orders o where o.id = i.order_id and o.status = 'pending' and o.expires_at > ${now})))`;

/** The row `i` is held by an order of `userId` that can still be paid: what that customer holds unpaid. */
const heldUnpaidBy = (userId: number, now: string) =>
  sql<boolean>`(i.status = 'reserved' and exists (select 1 from orders o where o.id = i.order_id and o.user_id = ${userId} and o.status = 'pending' and o.expires_at > ${now}))`;

/** The query allows only hex digits, dots and colons (the contract): no `%` or `_` to escape. */
const ipPrefix = (text: string) => sql<boolean>`${sql.ref('i.exit_ip')} like ${`${text}%`}`;

/** Static residential inventory rows, the business lines each may serve, and their history (docs/data-model.md#static-residential-inventory). */
export class StaticInventoryRepository {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly clock: Clock,
    private readonly box: SealedBox,
    /** The shop currency, which `cost_month` is in. */
    private readonly currency: string,
  ) {}

  /**
   * Adds one row with its business lines and an `imported` event; null when the exit IP is already in
   * the inventory (a unique key, so two imports racing for one address leave one row and one duplicate).
   */
  async insert(
    r: { exitIp: string; regionId: number; isp: string | null; costMonth: number; upstream: ParsedUpstream; businessIds: number[]; actorId: number },
    trx: Trx,
  ): Promise<number | null> {
    const now = iso(this.clock.now());
    const { protocol, host, port, username, password } = r.upstream;
    const row = await trx
      .insertInto('static_inventory')
      .values({
        exit_ip: r.exitIp,
        region_id: r.regionId,
        isp: r.isp,
        cost_month: r.costMonth,
        protocol,
        host,
        port,
        username,
        password_sealed: password === null ? null : this.box.seal(password),
        created_at: now,
        updated_at: now,
      })
      .onConflict((oc) => oc.column('exit_ip').doNothing())
      .returning('id')
      .executeTakeFirst();
    if (!row) return null;
    await this.setBusinesses(row.id, r.businessIds, trx);
    await this.addEvent(row.id, { event: 'imported', actor_id: r.actorId }, trx);
    return row.id;
  }

  async setBusinesses(id: number, businessIds: number[], trx: Trx): Promise<void> {
    await trx.deleteFrom('static_inventory_businesses').where('inventory_id', '=', id).execute();
    const unique = [...new Set(businessIds)];
    if (unique.length > 0) await trx.insertInto('static_inventory_businesses').values(unique.map((business_id) => ({ inventory_id: id, business_id }))).execute();
  }

  async addEvent(id: number, e: EventInput, trx: Trx): Promise<void> {
    await trx
      .insertInto('static_inventory_events')
      .values({ inventory_id: id, user_id: null, allocation_id: null, order_id: null, actor_id: null, reason: null, ...e, at: iso(this.clock.now()) })
      .execute();
  }

  find(id: number, trx?: Trx): Promise<Row | undefined> {
    return (trx ?? this.db).selectFrom('static_inventory').selectAll().where('id', '=', id).executeTakeFirst();
  }

  async page(q: StaticInventoryQuery): Promise<{ items: StaticInventoryDto[]; total: number }> {
    let base = this.db.selectFrom('static_inventory as i');
    if (q.regionId) base = base.where('i.region_id', '=', q.regionId);
    if (q.status) base = base.where('i.status', '=', q.status);
    if (q.ip) base = base.where(ipPrefix(q.ip.toLowerCase()));
    // A row with no lines listed serves every line, so it is in every line's list.
    if (q.businessId) base = base.where(servesLine(q.businessId));
    const { n } = await base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
    const rows = await base
      .selectAll('i')
      .orderBy('i.id', 'desc')
      .limit(q.pageSize)
      .offset((q.page - 1) * q.pageSize)
      .execute();
    return { items: await this.toDtos(rows), total: Number(n) };
  }

  async toDtos(rows: Row[], trx?: Trx): Promise<StaticInventoryDto[]> {
    const ids = rows.map((r) => r.id);
    const links = ids.length === 0 ? [] : await (trx ?? this.db).selectFrom('static_inventory_businesses').selectAll().where('inventory_id', 'in', ids).orderBy('business_id').execute();
    const lines = new Map<number, number[]>();
    for (const l of links) lines.set(l.inventory_id, [...(lines.get(l.inventory_id) ?? []), l.business_id]);
    const held =
      ids.length === 0
        ? []
        : await (trx ?? this.db)
            .selectFrom('static_allocations')
            .select(['id', 'user_id', 'inventory_id', 'expires_at'])
            .where('inventory_id', 'in', ids)
            .where('status', '<>', 'released')
            .execute();
    const holders = new Map(held.map((h) => [h.inventory_id, { allocationId: h.id, userId: h.user_id, expiresAt: h.expires_at }]));
    return rows.map((r) => this.toDto(r, lines.get(r.id) ?? [], holders.get(r.id) ?? null));
  }

  /** The upstream as an admin sees it: user name kept, password never (only whether there is one). */
  private toDto(r: Row, businessIds: number[], holder: StaticInventoryDto['holder']): StaticInventoryDto {
    const auth = r.username === null ? '' : `${encodeURIComponent(r.username)}${r.password_sealed === null ? '' : ':••••'}@`;
    const host = r.host.includes(':') ? `[${r.host}]` : r.host;
    return {
      id: r.id,
      ip: r.exit_ip,
      regionId: r.region_id,
      businessIds,
      isp: r.isp,
      protocol: r.protocol,
      upstream: `${r.protocol}://${auth}${host}:${r.port}`,
      status: r.status,
      cooldownUntil: r.cooldown_until,
      remark: r.remark,
      costPerMonth: Number(r.cost_month),
      currency: this.currency,
      holder,
      createdAt: r.created_at,
      updatedAt: r.updated_at,
    };
  }

  async update(id: number, patch: { region_id: number; isp: string | null; remark: string | null; cost_month?: number }, trx: Trx): Promise<Row | undefined> {
    return trx
      .updateTable('static_inventory')
      .set({ ...patch, updated_at: iso(this.clock.now()) })
      .where('id', '=', id)
      .returningAll()
      .executeTakeFirst();
  }

  /** Takes a row out of sale for good, whatever it was doing; undefined when it is unknown or already retired. */
  retire(id: number, trx: Trx): Promise<Row | undefined> {
    return trx
      .updateTable('static_inventory')
      .set({ status: 'retired', order_id: null, cooldown_until: null, updated_at: iso(this.clock.now()) })
      .where('id', '=', id)
      .where('status', '<>', 'retired')
      .returningAll()
      .executeTakeFirst();
  }

  async events(id: number): Promise<StaticInventoryEvent[]> {
    const rows = await this.db.selectFrom('static_inventory_events').selectAll().where('inventory_id', '=', id).orderBy('id', 'desc').limit(200).execute();
    return rows.map((e) => ({ id: e.id, event: e.event, userId: e.user_id, orderId: e.order_id, actorId: e.actor_id, reason: e.reason, at: e.at }));
  }

  /**
   * Reserves `quantity` rows of a region that may serve a business line for `orderId`, or none: the ids,
   * or null when fewer are takeable.
   */
  async reserve(q: { regionId: number; businessId: number; quantity: number; orderId: number; now: string }, trx: Trx): Promise<number[] | null> {
    const ids = await this.pick(q, trx);
    if (!ids) return null;
    await trx.updateTable('static_inventory').set({ status: 'reserved', order_id: q.orderId, updated_at: q.now }).where('id', 'in', ids).execute();
    return ids;
  }

  /**
   * Locks `quantity` takeable rows of the region and line (other than `except`) for this transaction;
   * null when there are fewer. PostgreSQL skips rows another buyer holds locked, so racing buyers get
   * different rows; SQLite has one writer at a time.
   *
   * A row that another buyer reserved and committed while this statement ran is locked and re-read by
   * PostgreSQL in its new version, but the `orders` subquery of `takeable` still sees this statement's
   * older snapshot, where that buyer's order does not exist yet: the row would look takeable and be
   * reserved twice (100 buyers racing for 10 rows got 11). So the locked rows are judged again in a new
   * statement, which sees every commit before it; those that fail are left, and more are picked.
   */
  private async pick(q: { regionId: number; businessId: number; quantity: number; except?: number; now: string }, trx: Trx): Promise<number[] | null> {
    const pg = trx.getExecutor().adapter instanceof PostgresAdapter;
    const seen = new Set<number>(q.except === undefined ? [] : [q.except]);
    const taken: number[] = [];
    while (taken.length < q.quantity) {
      let candidates = trx
        .selectFrom('static_inventory as i')
        .select('i.id')
        .where('i.region_id', '=', q.regionId)
        .where(servesLine(q.businessId))
        .where(takeable(q.now))
        .orderBy('i.id')
        .limit(q.quantity - taken.length);
      if (seen.size > 0) candidates = candidates.where('i.id', 'not in', [...seen]);
      if (pg) candidates = candidates.forUpdate().skipLocked();
      const ids = (await candidates.execute()).map((r) => r.id);
      if (ids.length === 0) return null;
      for (const id of ids) seen.add(id);
      if (!pg) {
        taken.push(...ids);
        continue;
      }
      const still = await trx.selectFrom('static_inventory as i').select('i.id').where('i.id', 'in', ids).where(takeable(q.now)).execute();
      taken.push(...still.map((r) => r.id));
    }
    return taken;
  }

  /**
   * What one customer's unpaid orders hold now: `total` rows over all regions, `here` rows of the region
   * that may serve the line, and `available`, the rows of that region and line anyone can take now.
   */
  async unpaidHolds(q: { userId: number; regionId: number; businessId: number; now: string }, trx: Trx): Promise<{ total: number; here: number; available: number }> {
    const count = async (where: RawBuilder<boolean>, local: boolean) => {
      let query = trx.selectFrom('static_inventory as i').select((eb) => eb.fn.countAll<number>().as('n')).where(where);
      if (local) query = query.where('i.region_id', '=', q.regionId).where(servesLine(q.businessId));
      return Number((await query.executeTakeFirstOrThrow()).n);
    };
    return {
      total: await count(heldUnpaidBy(q.userId, q.now), false),
      here: await count(heldUnpaidBy(q.userId, q.now), true),
      available: await count(takeable(q.now), true),
    };
  }

  /** Rows still reserved by the order, of the region and line given. */
  async reservedBy(orderId: number, regionId: number, businessId: number, trx: Trx): Promise<Row[]> {
    let q = trx
      .selectFrom('static_inventory as i')
      .selectAll('i')
      .where('i.status', '=', 'reserved')
      .where('i.order_id', '=', orderId)
      .where('i.region_id', '=', regionId)
      .where(servesLine(businessId))
      .orderBy('i.id');
    // A buyer racing an admin who pays this (expired) order by hand waits, then sees the rows as they are.
    if (trx.getExecutor().adapter instanceof PostgresAdapter) q = q.forUpdate();
    return q.execute();
  }

  /** A reserved row handed to its customer. */
  async markAllocated(id: number, now: string, trx: Trx): Promise<void> {
    await trx.updateTable('static_inventory').set({ status: 'allocated', order_id: null, updated_at: now }).where('id', '=', id).execute();
  }

  /** Reservations of orders that can no longer be paid go back to free; answers how many. */
  async releaseDeadReservations(now: string): Promise<number> {
    const res = await this.db
      .updateTable('static_inventory as i')
      .set({ status: 'free', order_id: null, updated_at: now })
      .where('i.status', '=', 'reserved')
      .where(takeable(now))
      .executeTakeFirst();
    return Number(res.numUpdatedRows);
  }

  /** Rows to move from one status to another, as the lifecycle sees them. */
  async setStatus(ids: number[], from: Row['status'][], to: Row['status'], patch: { cooldown_until?: string | null; now: string }, trx: Trx): Promise<number[]> {
    if (ids.length === 0) return [];
    const rows = await trx
      .updateTable('static_inventory')
      .set({ status: to, updated_at: patch.now, ...(patch.cooldown_until !== undefined ? { cooldown_until: patch.cooldown_until } : {}) })
      .where('id', 'in', ids)
      .where('status', 'in', from)
      .returning('id')
      .execute();
    return rows.map((r) => r.id);
  }

  /** Rows whose cooldown is over go back to free; answers their ids. */
  async endCooldowns(now: string, trx: Trx): Promise<number[]> {
    const rows = await trx
      .updateTable('static_inventory')
      .set({ status: 'free', cooldown_until: null, updated_at: now })
      .where('status', '=', 'cooldown')
      .where('cooldown_until', '<=', now)
      .returning('id')
      .execute();
    return rows.map((r) => r.id);
  }

  /** One takeable row of the region and line other than `except`, taken straight into allocated (a replacement). */
  async takeOne(q: { regionId: number; businessId: number; except: number; now: string }, trx: Trx): Promise<number | null> {
    const ids = await this.pick({ ...q, quantity: 1 }, trx);
    if (!ids) return null;
    await trx.updateTable('static_inventory').set({ status: 'allocated', order_id: null, updated_at: q.now }).where('id', '=', ids[0]!).execute();
    return ids[0]!;
  }
}

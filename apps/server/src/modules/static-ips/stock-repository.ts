import { STATIC_INVENTORY_STATUSES, type StaticStockCell } from '@resi/contract';
import { type Kysely, sql } from 'kysely';
import type { Database } from '../../db/schema';
import { servesLine, takeable } from './inventory-repository';

/** Counts of the static inventory: the operator's board and the stock customers can buy. */
export class StaticStockRepository {
  constructor(private readonly db: Kysely<Database>) {}

  /** Rows per region × declared business line (null: rows that serve every line) × status. */
  async board(): Promise<StaticStockCell[]> {
    const rows = await this.db
      .selectFrom('static_inventory as i')
      .leftJoin('static_inventory_businesses as b', 'b.inventory_id', 'i.id')
      .select(['i.region_id', 'b.business_id', 'i.status', (eb) => eb.fn.countAll<number>().as('n')])
      .groupBy(['i.region_id', 'b.business_id', 'i.status'])
      .execute();
    const cells = new Map<string, StaticStockCell>();
    for (const r of rows) {
      const key = `${r.region_id}:${r.business_id ?? ''}`;
      let cell = cells.get(key);
      if (!cell) {
        cell = { regionId: r.region_id, businessId: r.business_id ?? null, counts: Object.fromEntries(STATIC_INVENTORY_STATUSES.map((s) => [s, 0])) as StaticStockCell['counts'] };
        cells.set(key, cell);
      }
      cell.counts[r.status] = Number(r.n);
    }
    return [...cells.values()].sort((a, b) => a.regionId - b.regionId || (a.businessId ?? 0) - (b.businessId ?? 0));
  }

  /**
   * Rows of each region that can be taken now (inventory-repository.ts `takeable`) and may serve each
   * enabled business line (a row with no lines listed serves all of them): what a customer can buy now.
   */
  async freeStock(now: string): Promise<{ regionId: number; businessId: number; available: number }[]> {
    const rows = await this.db
      .selectFrom('static_inventory as i')
      .innerJoin('businesses as bz', (j) => j.on('bz.enabled', '=', 1))
      .select(['i.region_id', 'bz.id as business_id', (eb) => eb.fn.countAll<number>().as('n')])
      .where(takeable(now))
      .where(servesLine(sql.ref('bz.id')))
      .groupBy(['i.region_id', 'bz.id'])
      .execute();
    return rows.map((r) => ({ regionId: r.region_id, businessId: r.business_id, available: Number(r.n) }));
  }
}

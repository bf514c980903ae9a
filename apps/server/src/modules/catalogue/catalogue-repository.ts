import type { Kysely, Selectable, Transaction } from 'kysely';
import type { BusinessTable, Database, PackageTable, RegionTable, StaticPriceTable, StaticRegionTable } from '../../db/schema';

type Trx = Transaction<Database>;

/** The tables the admin edits through one set of routes (admin-routes.ts). */
export type CatalogueTable = 'packages' | 'regions' | 'static_regions' | 'businesses' | 'static_prices';
/** A row of one of those tables, as the routes' own mappers (catalogue-dto.ts) read it. */
export type CatalogueRow = Record<string, unknown>;

// The catalogue tables share `id`; Kysely cannot type a table chosen at run time, hence a looser view.
type LooseDb = Kysely<Record<CatalogueTable, { id: number } & Record<string, unknown>>>;
const loose = (db: Kysely<Database>) => db as unknown as LooseDb;

/** Packages, regions, static regions, business lines and static prices. */
export class CatalogueRepository {
  constructor(private readonly db: Kysely<Database>) {}

  /** A package customers may buy now. */
  findEnabledPackage(id: number): Promise<Selectable<PackageTable> | undefined> {
    return this.db.selectFrom('packages').selectAll().where('id', '=', id).where('enabled', '=', 1).executeTakeFirst();
  }

  // The shop window: only what is enabled, in the operator's order.

  enabledPackages(): Promise<Selectable<PackageTable>[]> {
    return this.db.selectFrom('packages').selectAll().where('enabled', '=', 1).orderBy('sort').orderBy('id').execute();
  }

  /** Prices whose static region and business line are both enabled. */
  enabledStaticPrices(): Promise<Selectable<StaticPriceTable>[]> {
    return this.db
      .selectFrom('static_prices as p')
      .innerJoin('static_regions as r', 'r.id', 'p.region_id')
      .innerJoin('businesses as b', 'b.id', 'p.business_id')
      .selectAll('p')
      .where('r.enabled', '=', 1)
      .where('b.enabled', '=', 1)
      .orderBy('p.region_id')
      .orderBy('p.business_id')
      .orderBy('p.days')
      .execute();
  }

  /**
   * What a static purchase of (region, line) is called and, for `days`, costs: the region's and line's
   * names, and the listed price (null when none is listed). Undefined when the region or line is unknown,
   * or (for customers, `enabledOnly`) disabled.
   */
  async staticOffer(q: { regionId: number; businessId: number; days: number; enabledOnly: boolean }, trx?: Trx) {
    let rb = (trx ?? this.db)
      .selectFrom('static_regions as r')
      .innerJoin('businesses as b', (j) => j.on('b.id', '=', q.businessId))
      .leftJoin('static_prices as p', (j) => j.onRef('p.region_id', '=', 'r.id').onRef('p.business_id', '=', 'b.id').on('p.days', '=', q.days))
      .select(['r.name_en', 'r.name_zh_cn', 'r.name_zh', 'b.name_en as b_en', 'b.name_zh_cn as b_zh_cn', 'b.name_zh as b_zh', 'p.price', 'p.currency'])
      .where('r.id', '=', q.regionId);
    if (q.enabledOnly) rb = rb.where('r.enabled', '=', 1).where('b.enabled', '=', 1);
    const row = await rb.executeTakeFirst();
    if (!row) return undefined;
    return {
      region: { name_en: row.name_en, name_zh_cn: row.name_zh_cn, name_zh: row.name_zh },
      business: { name_en: row.b_en, name_zh_cn: row.b_zh_cn, name_zh: row.b_zh },
      price: row.price === null ? null : Number(row.price),
      currency: row.currency,
    };
  }

  enabledRegions(): Promise<Selectable<RegionTable>[]> {
    return this.db.selectFrom('regions').selectAll().where('enabled', '=', 1).orderBy('sort').orderBy('country').orderBy('id').execute();
  }

  enabledStaticRegions(): Promise<Selectable<StaticRegionTable>[]> {
    return this.db.selectFrom('static_regions').selectAll().where('enabled', '=', 1).orderBy('sort').orderBy('id').execute();
  }

  enabledBusinesses(): Promise<Selectable<BusinessTable>[]> {
    return this.db.selectFrom('businesses').selectAll().where('enabled', '=', 1).orderBy('sort').orderBy('id').execute();
  }

  // The admin's view: every row of one table, whatever its state.

  listAll(table: CatalogueTable, order: 'sort' | 'id'): Promise<CatalogueRow[]> {
    return loose(this.db).selectFrom(table).selectAll().orderBy(order).orderBy('id').execute();
  }

  find(table: CatalogueTable, id: number, trx?: Trx): Promise<CatalogueRow | undefined> {
    return loose(trx ?? this.db).selectFrom(table).selectAll().where('id', '=', id).executeTakeFirst();
  }

  /** Whether a row exists, for the rows a static price points at. */
  async exists(table: 'static_regions' | 'businesses', id: number, trx?: Trx): Promise<boolean> {
    return (await (trx ?? this.db).selectFrom(table).select('id').where('id', '=', id).executeTakeFirst()) !== undefined;
  }

  insert(table: CatalogueTable, row: Record<string, unknown>, trx?: Trx): Promise<CatalogueRow> {
    return loose(trx ?? this.db).insertInto(table).values(row).returningAll().executeTakeFirstOrThrow();
  }

  update(table: CatalogueTable, id: number, row: Record<string, unknown>, trx?: Trx): Promise<CatalogueRow> {
    return loose(trx ?? this.db).updateTable(table).set(row).where('id', '=', id).returningAll().executeTakeFirstOrThrow();
  }

  /** The deleted row, or undefined when there was none. */
  remove(table: CatalogueTable, id: number, trx?: Trx): Promise<CatalogueRow | undefined> {
    return loose(trx ?? this.db).deleteFrom(table).where('id', '=', id).returningAll().executeTakeFirst();
  }
}

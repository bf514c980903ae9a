import type { Insertable, Kysely, Transaction } from 'kysely';
import type { BusinessTable, Database, PackageTable, PayConfigTable, RegionTable, StaticPriceTable, StaticRegionTable } from '../../db/schema';

type Trx = Transaction<Database>;

/** The writes of the embedded demo's shop (demo-seed.ts), all in the seeding transaction. */
export class DemoSeedRepository {
  constructor(private readonly db: Kysely<Database>) {}

  /** Inserts a setting unless the key exists; true when this call inserted it. */
  async addSettingOnce(key: string, value: string, now: string, trx?: Trx): Promise<boolean> {
    const res = await (trx ?? this.db)
      .insertInto('settings')
      .values({ key, value, updated_at: now })
      .onConflict((oc) => oc.column('key').doNothing())
      .executeTakeFirst();
    return Number(res.numInsertedOrUpdatedRows ?? 0n) === 1;
  }

  /** No package, region, static region or business line exists. */
  async catalogueIsEmpty(trx?: Trx): Promise<boolean> {
    for (const table of ['packages', 'regions', 'static_regions', 'businesses'] as const) {
      if (await (trx ?? this.db).selectFrom(table).select('id').limit(1).executeTakeFirst()) return false;
    }
    return true;
  }

  async addPackages(rows: Insertable<PackageTable>[], trx?: Trx): Promise<void> {
    await (trx ?? this.db).insertInto('packages').values(rows).execute();
  }

  async addRegions(rows: Insertable<RegionTable>[], trx?: Trx): Promise<void> {
    await (trx ?? this.db).insertInto('regions').values(rows).execute();
  }

  /** The new rows' ids, in the order given. */
  async addStaticRegions(rows: Insertable<StaticRegionTable>[], trx?: Trx): Promise<number[]> {
    return (await (trx ?? this.db).insertInto('static_regions').values(rows).returning('id').execute()).map((r) => r.id);
  }

  /** The new rows' ids, in the order given. */
  async addBusinesses(rows: Insertable<BusinessTable>[], trx?: Trx): Promise<number[]> {
    return (await (trx ?? this.db).insertInto('businesses').values(rows).returning('id').execute()).map((r) => r.id);
  }

  async addStaticPrices(rows: Insertable<StaticPriceTable>[], trx?: Trx): Promise<void> {
    await (trx ?? this.db).insertInto('static_prices').values(rows).execute();
  }

  /** A payment method's settings, unless the method has some already. */
  async addPayConfigOnce(row: Insertable<PayConfigTable>, trx?: Trx): Promise<void> {
    await (trx ?? this.db)
      .insertInto('pay_configs')
      .values(row)
      .onConflict((oc) => oc.column('method').doNothing())
      .execute();
  }
}

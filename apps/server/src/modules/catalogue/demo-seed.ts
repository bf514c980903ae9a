import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../../db/schema';
import { type Clock, iso } from '../../lib/clock';
import { DemoSeedRepository } from './demo-seed-repository';

const GB = 1024 ** 3;

/**
 * The embedded demo's shop: packages, regions and business lines so `npm start` shows a working
 * store, the sandbox payment method switched on and direct egress for the gateway. Runs only on an empty catalogue.
 */
export async function seedDemoCatalogue(db: Kysely<Database>, clock: Clock, currency: string, production = false): Promise<boolean> {
  const now = iso(clock.now());
  const seed = new DemoSeedRepository(db);
  return db.transaction().execute(async (trx) => {
    if (!(await claimDemoSeed(seed, trx, now))) return false;
    const pkgs = [
      ['Starter 1 GB', '入门 1 GB', '入門 1 GB', 1, 300, 30, null],
      ['Basic 10 GB', '基础 10 GB', '基礎 10 GB', 10, 2500, 30, 'popular'],
      ['Pro 50 GB', '专业 50 GB', '專業 50 GB', 50, 10000, 60, 'best-value'],
      ['Business 200 GB', '企业 200 GB', '企業 200 GB', 200, 35000, 90, null],
    ] as const;
    await seed.addPackages(
      pkgs.map(([en, cn, tw, gb, price, days, badge], i) => ({
        name_en: en,
        name_zh_cn: cn,
        name_zh: tw,
        bytes: gb * GB,
        price,
        currency,
        validity_days: days,
        badge,
        sort: i,
        enabled: 1,
        created_at: now,
        updated_at: now,
      })),
      trx,
    );
    const regions = [
      ['US', null, null, 'United States', '美国', '美國'],
      ['US', 'ca', null, 'California', '加利福尼亚', '加利福尼亞'],
      ['US', 'ca', 'losangeles', 'Los Angeles', '洛杉矶', '洛杉磯'],
      ['US', 'ny', null, 'New York State', '纽约州', '紐約州'],
      ['US', 'ny', 'newyork', 'New York', '纽约', '紐約'],
      ['GB', null, null, 'United Kingdom', '英国', '英國'],
      ['DE', null, null, 'Germany', '德国', '德國'],
      ['JP', null, null, 'Japan', '日本', '日本'],
      ['SG', null, null, 'Singapore', '新加坡', '新加坡'],
    ] as const;
    await seed.addRegions(
      regions.map(([country, state, city, en, cn, tw], i) => ({ country, state, city, name_en: en, name_zh_cn: cn, name_zh: tw, pool_size: 0, sort: i, enabled: 1 })),
      trx,
    );
    const staticRegions = [
      ['US', 'losangeles', 'Los Angeles', '洛杉矶', '洛杉磯'],
      ['JP', 'tokyo', 'Tokyo', '东京', '東京'],
      ['SG', null, 'Singapore', '新加坡', '新加坡'],
    ] as const;
    const sr = await seed.addStaticRegions(
      staticRegions.map(([country, city, en, cn, tw], i) => ({ country, city, name_en: en, name_zh_cn: cn, name_zh: tw, sort: i, enabled: 1 })),
      trx,
    );
    const businesses = [
      ['ecommerce', 'E-commerce', '电商', '電商'],
      ['social', 'Social media', '社交媒体', '社群媒體'],
    ] as const;
    const bz = await seed.addBusinesses(
      businesses.map(([code, en, cn, tw], i) => ({ code, name_en: en, name_zh_cn: cn, name_zh: tw, sort: i, enabled: 1 })),
      trx,
    );
    const prices = sr.flatMap((regionId) => bz.flatMap((businessId) => [30, 90].map((days) => ({ region_id: regionId, business_id: businessId, days, price: days === 30 ? 500 : 1350, currency }))));
    await seed.addStaticPrices(prices, trx);
    // `npm start` carries real traffic: the gateway host itself is the exit until an operator adds supply.
    // Never in production (DEMO_DATA=on there): direct egress is a demo setting.
    await seed.addSettingOnce('gateway.supply', JSON.stringify({ directEgress: !production }), now, trx);
    await seed.addPayConfigOnce({ method: 'sandbox', enabled: 1, settings: '{}', secrets: null, updated_at: now }, trx);
    return true;
  });
}

/** Settings key set when a store got (or declined) its demo shop: the demo is created once per store. */
export const DEMO_SEEDED_KEY = 'demo.seeded';

/**
 * Claims the one demo seeding of this store. The marker is inserted first, so of two processes starting
 * together only one seeds (the other waits on the key, then inserts nothing), and a catalogue an operator
 * later emptied is never filled again. A store that already has a catalogue (filled by hand, or seeded
 * before the marker existed) gets the marker and no demo.
 */
async function claimDemoSeed(seed: DemoSeedRepository, trx: Transaction<Database>, now: string): Promise<boolean> {
  if (!(await seed.addSettingOnce(DEMO_SEEDED_KEY, JSON.stringify({ at: now }), now, trx))) return false;
  return seed.catalogueIsEmpty(trx);
}

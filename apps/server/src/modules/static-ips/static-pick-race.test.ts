import { sql } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call } from '../../../test/auth-flows';
import { seedCatalogue, signedIn } from '../../../test/commerce';
import { importInventory } from '../../../test/static-kit';
import { until } from '../../../test/store-gateway-kit';
import { DIALECTS, type TestApp, createTestApp } from '../../../test/test-app';

/** The advisory lock the gate waits on; the database is this file's own. */
const GATE = 4242;

/*
 * The window StaticInventoryRepository.pick re-checks on PostgreSQL. Buyer B's `SELECT … FOR UPDATE SKIP
 * LOCKED` has taken its snapshot when buyer A reserves the last IP and commits; B then reaches the row,
 * finds it updated by a committed transaction and, in read committed, locks and re-evaluates its newest
 * version. That version is 'reserved' for A's order, but the `orders` subquery of `takeable` still reads
 * B's older snapshot, where A's order does not exist: the row passes and B would reserve it too. (Had A
 * not committed yet, SKIP LOCKED would simply skip the row; B never waits on it.)
 *
 * Nothing in a statement waits between its snapshot and its row locks, so the test holds B there itself:
 * B's API process reads `static_inventory_businesses` through a view in a schema first on its search_path,
 * whose filter waits on an advisory lock the test holds. It waits only inside a transaction that has
 * written, i.e. B's order transaction after its order row, so B's own stock check before it runs freely.
 * The row lists the business line, so `servesLine` reads that view for it before the row is locked.
 *
 * SQLite has no such window: a statement runs to its end synchronously, and a transaction that writes
 * holds the store's one write lock and reads the newest data, so no other buyer commits during B's pick.
 * There the same two purchases run one after the other.
 */
describe.each(DIALECTS)('two buyers for the last static IP on %s', (dialect) => {
  let t: TestApp;
  let admin: string;
  let regionId: number;
  let businessId: number;
  beforeAll(async () => {
    t = await createTestApp(dialect);
    await seedCatalogue(t);
    admin = (await signedIn(t, 'admin')).token;
    regionId = (await call(t.app, 'GET', '/api/static-region')).body.data.items[0].id;
    businessId = (await call(t.app, 'GET', '/api/business')).body.data.items[0].id;
  });
  afterAll(() => t?.close());

  const buyOne = (app: TestApp, token: string) => call(app.app, 'POST', '/api/buy/static', { token, body: { regionId, businessId, quantity: 1, days: 30, payMethod: 'sandbox' } });
  const reservations = () => t.db.db.selectFrom('static_inventory').select(['status', 'order_id']).where('region_id', '=', regionId).execute();
  const orderIdOf = async (orderNo: string) => (await t.db.db.selectFrom('orders').select('id').where('order_no', '=', orderNo).executeTakeFirstOrThrow()).id;

  it('the buyer whose pick began before the other committed does not get the IP the other reserved', async () => {
    await importInventory(t, admin, { regionId, businessIds: [businessId], ips: ['198.51.100.7'] });
    const [a, b] = [await signedIn(t), await signedIn(t)];

    if (dialect === 'sqlite') {
      expect((await buyOne(t, a.token)).status).toBe(200);
      const late = await buyOne(t, b.token);
      expect([late.status, late.body.code]).toEqual([409, 'OUT_OF_STOCK']);
      return;
    }

    await sql`create schema resi_gate`.execute(t.db.db);
    await sql
      .raw(
        `create function resi_gate.pause() returns boolean language plpgsql volatile as $$
         begin
           if pg_current_xact_id_if_assigned() is not null then perform pg_advisory_xact_lock_shared(${GATE}); end if;
           return true;
         end $$`,
      )
      .execute(t.db.db);
    await sql`create view resi_gate.static_inventory_businesses as select * from public.static_inventory_businesses where resi_gate.pause()`.execute(t.db.db);
    const gatedUrl = new URL(t.config.DATABASE_URL!);
    gatedUrl.searchParams.set('options', '-c search_path=resi_gate,public');
    // B: a second API process on the same store, through the gate.
    const tb = await createTestApp(dialect, { DATABASE_URL: gatedUrl.toString() }, { sameStoreAs: t });
    const gate = new pg.Client({ connectionString: t.config.DATABASE_URL });
    await gate.connect();
    try {
      await gate.query('select pg_advisory_lock($1)', [GATE]);
      let settled = false;
      const late = buyOne(tb, b.token).finally(() => (settled = true));
      await until(
        async () => {
          if (settled) throw new Error('B bought without waiting at the gate: the test no longer stages the race');
          const waiting = await gate.query("select 1 from pg_locks where locktype = 'advisory' and not granted and database = (select oid from pg_database where datname = current_database())");
          return (waiting.rowCount ?? 0) > 0;
        },
        15_000,
        "B's pick to wait at the gate, its snapshot taken",
      );
      const first = await buyOne(t, a.token);
      expect(first.status).toBe(200);
      await gate.query('select pg_advisory_unlock($1)', [GATE]);
      const second = await late;
      expect([second.status, second.body.code]).toEqual([409, 'OUT_OF_STOCK']);
      expect(await reservations()).toEqual([{ status: 'reserved', order_id: await orderIdOf(first.body.data.order.orderNo) }]);
    } finally {
      await gate.end();
      await tb.close();
    }
  });
});

import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { call } from '../../../test/auth-flows';
import { seedCatalogue, signedIn } from '../../../test/commerce';
import { gatewayCustomer } from '../../../test/store-gateway-kit';
import { DIALECTS, type TestApp, createTestApp } from '../../../test/test-app';
import { DAY, addMs, iso } from '../../lib/clock';
import { SEAL_LABELS, SealedBox } from '../../lib/sealed-box';
import { AccountCache } from './account-cache';
import { AccountCacheRepository } from './account-cache-repository';

const NOTHING = { full: false, users: 0, accounts: 0, balances: 0 };
const oneUser = { full: false, users: 1 };

/**
 * A static IP's login in the gateway's account cache (docs/gateway.md#static-ips): served with its own
 * exit, refused by its allocation's status and expiry, and every change to the allocation or to the
 * inventory row it exits through read by an incremental refresh of that user alone (migration
 * 2026-12-04-static-change-versions).
 */
describe.each(DIALECTS)('static logins in the account cache on %s', (dialect) => {
  let t: TestApp;
  let admin: string;
  let regionId: number;
  let businessId: number;
  let cache: AccountCache;
  let moved: number[];
  const upstreamBox = () => new SealedBox(t.config.APP_SECRET, SEAL_LABELS.staticUpstreamPassword);
  let nextIp = 1;

  beforeAll(async () => {
    t = await createTestApp(dialect);
    await seedCatalogue(t);
    regionId = (await call(t.app, 'GET', '/api/static-region')).body.data.items[0].id;
    businessId = (await call(t.app, 'GET', '/api/business')).body.data.items[0].id;
  });
  afterAll(() => t.close());

  beforeEach(async () => {
    admin = (await signedIn(t, 'admin')).token;
    moved = [];
    cache = new AccountCache(new AccountCacheRepository(t.db.db), t.clock, new SealedBox(t.config.APP_SECRET, SEAL_LABELS.proxyPassword), {
      gatewayId: 'gw-static',
      staticUpstreams: upstreamBox(),
      onExitMoved: (id) => moved.push(id),
    });
    expect((await cache.refresh()).full).toBe(true);
    expect(await cache.refresh()).toEqual(NOTHING);
  });

  /** Two fresh rows (an HTTP and a SOCKS5 upstream) and a customer without traffic holding the first. */
  async function staticCustomer() {
    // Rows an earlier test left free would be granted first (the lowest id).
    await t.db.db.updateTable('static_inventory').set({ status: 'retired' }).where('status', '=', 'free').execute();
    const ips = [`198.51.100.${nextIp++}`, `198.51.100.${nextIp++}`];
    const lines = [`http://prov:s3cret@10.1.0.1:3128 ${ips[0]}`, `socks5://prov2:p%40ss@10.1.0.2:1080 ${ips[1]}`].join('\n');
    const imported = await call(t.app, 'POST', '/api/manage/static-inventory', { token: admin, body: { regionId, lines } });
    const [first, second] = (imported.body.data.results as { id: number }[]).map((r) => r.id) as [number, number];
    const c = await gatewayCustomer(t, admin, []);
    await call(t.app, 'POST', '/api/manage/static-recharge', { token: admin, body: { userId: c.user.id, regionId, businessId, quantity: 1, days: 30, note: 'cache test' } });
    const [ip] = (await call(t.app, 'GET', '/api/proxy/static', { token: c.token })).body.data.items as { id: number; username: string; password: string }[];
    const { id: accountId } = await t.db.db.selectFrom('proxy_accounts').select('id').where('username', '=', ip!.username).executeTakeFirstOrThrow();
    return { c, ip: ip!, accountId, rows: [first, second] as const };
  }
  const setAllocation = (id: number, set: { status?: 'active' | 'grace' | 'released'; expires_at?: string; inventory_id?: number }) =>
    t.db.db.updateTable('static_allocations').set(set).where('id', '=', id).execute();

  it('serves a static login through its own upstream, with no traffic balance, under its region', async () => {
    const { c, ip, accountId, rows } = await staticCustomer();
    // The rotating account, the new login and the allocation: one user.
    expect(await cache.refresh()).toMatchObject(oneUser);
    expect(cache.authenticate(c.username, 'Secret123')).toEqual({ ok: false, reason: 'NO_TRAFFIC' });
    expect(cache.authenticate(ip.username, ip.password)).toEqual({
      ok: true,
      accountId,
      userId: c.user.id,
      pinned: { exit: { kind: 'upstream', url: 'http://prov:s3cret@10.1.0.1:3128', id: `static-${rows[0]}`, guarded: true }, country: 'US' },
    });
    expect(cache.standing(accountId)).toBeNull();
    expect(cache.allowance(accountId)).toMatchObject({ balance: Infinity, capLeft: null });
  });

  it('reads a status, an expiry and a replacement of the allocation, and cuts what moved', async () => {
    const { ip, accountId, rows } = await staticCustomer();
    await cache.refresh();

    await setAllocation(ip.id, { status: 'grace' });
    expect(await cache.refresh()).toMatchObject(oneUser);
    expect(cache.authenticate(ip.username, ip.password)).toEqual({ ok: false, reason: 'STATIC_EXPIRED' });
    await setAllocation(ip.id, { status: 'active', expires_at: iso(addMs(t.clock.now(), -1000)) });
    expect(await cache.refresh()).toMatchObject(oneUser);
    expect(cache.standing(accountId)).toBe('STATIC_EXPIRED');
    await setAllocation(ip.id, { expires_at: iso(addMs(t.clock.now(), DAY)) });
    expect(await cache.refresh()).toMatchObject(oneUser);
    expect(cache.standing(accountId)).toBeNull();
    expect(moved).toEqual([]);

    await setAllocation(ip.id, { inventory_id: rows[1] });
    expect(await cache.refresh()).toMatchObject(oneUser);
    expect(moved).toEqual([accountId]);
    const auth = cache.authenticate(ip.username, ip.password);
    expect(auth.ok && auth.pinned?.exit).toEqual({ kind: 'upstream', url: 'socks5://prov2:p%40ss@10.1.0.2:1080', id: `static-${rows[1]}`, guarded: true });

    await setAllocation(ip.id, { status: 'released' });
    expect(await cache.refresh()).toMatchObject(oneUser);
    expect(cache.standing(accountId)).toBe('STATIC_RELEASED');
  });

  it('reads an edit or a retirement of the inventory row it exits through, and nothing for rows it left', async () => {
    const { ip, accountId, rows } = await staticCustomer();
    await cache.refresh();

    await t.db.db.updateTable('static_inventory').set({ host: '10.1.0.9', password_sealed: upstreamBox().seal('n3w:pw') }).where('id', '=', rows[0]).execute();
    expect(await cache.refresh()).toMatchObject(oneUser);
    expect(moved).toEqual([accountId]);
    const auth = cache.authenticate(ip.username, ip.password);
    expect(auth.ok && auth.pinned?.exit.kind === 'upstream' && auth.pinned.exit.url).toBe('http://prov:n3w%3Apw@10.1.0.9:3128');

    // The other row carries no allocation of this user: nothing to read.
    await t.db.db.updateTable('static_inventory').set({ status: 'cooldown' }).where('id', '=', rows[1]).execute();
    expect(await cache.refresh()).toEqual(NOTHING);
    // A remark is not read either.
    await t.db.db.updateTable('static_inventory').set({ remark: 'fine' }).where('id', '=', rows[0]).execute();
    expect(await cache.refresh()).toEqual(NOTHING);

    expect((await call(t.app, 'DELETE', `/api/manage/static-inventory/${rows[0]}`, { token: admin, body: { reason: 'gone' } })).status).toBe(200);
    expect(await cache.refresh()).toMatchObject(oneUser);
    expect(cache.standing(accountId)).toBe('STATIC_RELEASED');

    // Once the allocation is released, its old row's changes concern nobody.
    await setAllocation(ip.id, { status: 'released' });
    await cache.refresh();
    await t.db.db.updateTable('static_inventory').set({ port: 3129 }).where('id', '=', rows[0]).execute();
    expect(await cache.refresh()).toEqual(NOTHING);
  });

  it('refuses an allocation whose time is up by the clock, without any write or refresh', async () => {
    const { ip, accountId } = await staticCustomer();
    await setAllocation(ip.id, { expires_at: iso(addMs(t.clock.now(), 60_000)) });
    await cache.refresh();
    expect(cache.standing(accountId)).toBeNull();
    t.clock.advance(60_000);
    expect(cache.standing(accountId)).toBe('STATIC_EXPIRED');
    expect(cache.authenticate(ip.username, ip.password)).toEqual({ ok: false, reason: 'STATIC_EXPIRED' });
  });
});

import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call } from '../../../test/auth-flows';
import { buy, configureMethod, seedCatalogue, signedIn } from '../../../test/commerce';
import { DIALECTS, type TestApp, createTestApp } from '../../../test/test-app';
import { DAY } from '../../lib/clock';
import { SEAL_LABELS, SealedBox } from '../../lib/sealed-box';
import type { UsageDelta } from '../ports';
import { AccountCache } from './account-cache';
import { AccountCacheRepository } from './account-cache-repository';
import { UsageRepository } from './usage-repository';

const MB = 1024 ** 2;
let seq = 0;

describe.each(DIALECTS)('gateway usage and balances on %s', (dialect) => {
  let t: TestApp;
  let admin: string;
  let store: UsageRepository;
  let cache: AccountCache;
  const overruns: [number, number][] = [];
  beforeAll(async () => {
    t = await createTestApp(dialect);
    admin = (await signedIn(t, 'admin')).token;
    store = new UsageRepository(t.db.db, t.clock, (userId, bytes) => overruns.push([userId, bytes]));
    cache = new AccountCache(new AccountCacheRepository(t.db.db), t.clock, new SealedBox(t.config.APP_SECRET, SEAL_LABELS.proxyPassword));
  });
  afterAll(() => t.close());

  /** A customer with `grants` (MB, validity days) credited by the admin and one proxy account. */
  async function customer(grants: [number, number][], limitBytes?: number) {
    const c = await signedIn(t);
    for (const [mb, days] of grants) {
      const r = await call(t.app, 'POST', '/api/manage/recharge', { token: admin, body: { userId: c.user.id, bytes: mb * MB, validityDays: days, note: 'test' } });
      expect(r.status).toBe(200);
    }
    const username = `u${c.user.id}x${++seq}`;
    const acct = await call(t.app, 'POST', '/api/proxy/dynamic', { token: c.token, body: { username, password: 'Secret123', limitBytes } });
    return { ...c, username, accountId: acct.body.data.id as number };
  }
  const hour = () => new Date(Math.floor(t.clock.now().getTime() / 3_600_000) * 3_600_000).toISOString();
  const delta = (c: { accountId: number; user: { id: number } }, up: number, down: number, country: string | null = 'US'): UsageDelta => ({
    accountId: c.accountId,
    userId: c.user.id,
    hour: hour(),
    country,
    bytesUp: up,
    bytesDown: down,
  });
  const grantsOf = (userId: number) => t.db.db.selectFrom('traffic_grants').select(['bytes', 'used_bytes']).where('user_id', '=', userId).orderBy('expires_at').execute();

  it('applies a batch once, however often and however concurrently it is retried', async () => {
    const c = await customer([[100, 30]]);
    const batch = [delta(c, 1 * MB, 4 * MB), delta(c, 0, 2 * MB, 'DE')];
    await Promise.all(Array.from({ length: 20 }, () => store.flush('gw-a', 1, batch)));
    await store.flush('gw-a', 1, batch);
    expect(await grantsOf(c.user.id)).toEqual([{ bytes: 100 * MB, used_bytes: 7 * MB }]);
    const usage = await t.db.db.selectFrom('usage_hourly').select(['country', 'bytes_up', 'bytes_down']).where('account_id', '=', c.accountId).orderBy('country').execute();
    expect(usage).toEqual([
      { country: 'DE', bytes_up: 0, bytes_down: 2 * MB },
      { country: 'US', bytes_up: 1 * MB, bytes_down: 4 * MB },
    ]);
    // Another gateway's batch with the same number is a different batch.
    await store.flush('gw-b', 1, [delta(c, 1 * MB, 0)]);
    await store.flush('gw-a', 2, [delta(c, 0, 1 * MB)]);
    expect(await grantsOf(c.user.id)).toEqual([{ bytes: 100 * MB, used_bytes: 9 * MB }]);
    const acct = await t.db.db.selectFrom('proxy_accounts').select('used_bytes').where('id', '=', c.accountId).executeTakeFirstOrThrow();
    expect(acct.used_bytes).toBe(9 * MB);
  });

  it('takes usage from the grant that expires first, and records an overrun', async () => {
    const c = await customer([[10, 60], [5, 7], [20, 30]]);
    await store.flush('gw-a', 100 + c.user.id, [delta(c, 2 * MB, 6 * MB)]);
    expect(await grantsOf(c.user.id)).toEqual([
      { bytes: 5 * MB, used_bytes: 5 * MB },
      { bytes: 20 * MB, used_bytes: 3 * MB },
      { bytes: 10 * MB, used_bytes: 0 },
    ]);
    await store.flush('gw-a', 200 + c.user.id, [delta(c, 0, 30 * MB)]);
    expect(await grantsOf(c.user.id)).toEqual([
      { bytes: 5 * MB, used_bytes: 8 * MB },
      { bytes: 20 * MB, used_bytes: 20 * MB },
      { bytes: 10 * MB, used_bytes: 10 * MB },
    ]);
    expect(overruns).toContainEqual([c.user.id, 3 * MB]);
  });

  it('charges concurrent flushes for one user exactly, earliest grant first, none beyond its size', async () => {
    // Several gateways flush at once, each for another of the user's accounts (so no row lock on the
    // account serialises them): each must see the grants as the others left them.
    const c = await customer([[10, 7], [10, 30], [100, 60]]);
    const accounts = [c.accountId];
    for (let i = 1; i < 8; i++) {
      const r = await call(t.app, 'POST', '/api/proxy/dynamic', { token: c.token, body: { username: `p${c.user.id}x${++seq}`, password: 'Secret123' } });
      accounts.push(r.body.data.id as number);
    }
    for (let round = 0; round < 3; round++) {
      await Promise.all(accounts.map((accountId, i) => store.flush(`gw-race-${i}`, 1000 * round + c.user.id, [{ ...delta(c, 0, 1 * MB), accountId }])));
    }
    const grants = await grantsOf(c.user.id);
    expect(grants.reduce((sum, g) => sum + g.used_bytes, 0)).toBe(24 * MB);
    expect(grants).toEqual([
      { bytes: 10 * MB, used_bytes: 10 * MB },
      { bytes: 10 * MB, used_bytes: 10 * MB },
      { bytes: 100 * MB, used_bytes: 4 * MB },
    ]);
    expect(overruns.filter(([userId]) => userId === c.user.id)).toEqual([]);
  });

  it('keeps the daily roll-up equal to the hourly rows, also when gateways flush crossing users at once', async () => {
    const a = await customer([[100, 30]]);
    const b = await customer([[100, 30]]);
    // a's account sorts first, b's user sorts first: without one lock order per phase, PostgreSQL deadlocks.
    const [low, high] = a.accountId < b.accountId ? [a, b] : [b, a];
    const day = hour().slice(0, 10);
    const yesterday = new Date(Date.parse(hour()) - DAY).toISOString();
    await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        store.flush(`gw-cross-${i % 2}`, 5000 + i, [
          delta(i % 2 ? high : low, 10, 100),
          delta(i % 2 ? low : high, 1, 1000, 'DE'),
          { ...delta(low, 7, 70), hour: yesterday },
        ]),
      ),
    );
    const daily = await t.db.db
      .selectFrom('usage_daily')
      .select(['day', 'user_id', 'country', 'bytes_up', 'bytes_down'])
      .where('user_id', 'in', [a.user.id, b.user.id])
      .orderBy('user_id')
      .orderBy('day')
      .orderBy('country')
      .execute();
    const hourly = await t.db.db.selectFrom('usage_hourly').select(['hour', 'user_id', 'country', 'bytes_up', 'bytes_down']).where('user_id', 'in', [a.user.id, b.user.id]).execute();
    const summed = new Map<string, { day: string; user_id: number; country: string; bytes_up: number; bytes_down: number }>();
    for (const h of hourly) {
      const key = `${h.user_id}|${h.hour.slice(0, 10)}|${h.country}`;
      const row = summed.get(key) ?? { day: h.hour.slice(0, 10), user_id: h.user_id, country: h.country, bytes_up: 0, bytes_down: 0 };
      row.bytes_up += Number(h.bytes_up);
      row.bytes_down += Number(h.bytes_down);
      summed.set(key, row);
    }
    const byKey = (r: { user_id: number; day: string; country: string }) => `${r.user_id}|${r.day}|${r.country}`;
    expect(daily.map((r) => ({ ...r, bytes_up: Number(r.bytes_up), bytes_down: Number(r.bytes_down) }))).toEqual([...summed.values()].sort((x, y) => x.user_id - y.user_id || byKey(x).localeCompare(byKey(y))));
    const lowToday = daily.filter((r) => r.user_id === low.user.id && r.day === day);
    expect(lowToday.map((r) => [r.country, Number(r.bytes_up), Number(r.bytes_down)])).toEqual([
      ['DE', 5, 5000],
      ['US', 50, 500],
    ]);
  });

  it('authenticates from the cache and refuses with the reason', async () => {
    const rich = await customer([[50, 30]]);
    const poor = await customer([]);
    const capped = await customer([[50, 30]], 1 * MB);
    await cache.refresh();
    expect(cache.authenticate(rich.username, 'Secret123')).toEqual({ ok: true, accountId: rich.accountId, userId: rich.user.id });
    expect(cache.authenticate(rich.username.toUpperCase(), 'Secret123')).toMatchObject({ ok: true });
    // A wrong password names the account, so its failed logins are counted for the owner (never the unknown name below).
    expect(cache.authenticate(rich.username, 'Secret124')).toEqual({ ok: false, reason: 'BAD_CREDENTIALS', accountId: rich.accountId });
    expect(cache.authenticate('nobody_here', 'Secret123')).toEqual({ ok: false, reason: 'BAD_CREDENTIALS' });
    expect(cache.authenticate(poor.username, 'Secret123')).toEqual({ ok: false, reason: 'NO_TRAFFIC' });
    expect(cache.authenticate(capped.username, 'Secret123')).toMatchObject({ ok: true });

    await store.flush('gw-c', capped.accountId, [delta(capped, 0, 1 * MB)]);
    await call(t.app, 'PUT', `/api/proxy/dynamic/${rich.accountId}`, { token: rich.token, body: { status: 'disabled' } });
    expect(cache.standing(capped.accountId)).toBeNull();
    await cache.refresh();
    expect(cache.standing(capped.accountId)).toBe('ACCOUNT_CAP');
    expect(cache.authenticate(rich.username, 'Secret123')).toEqual({ ok: false, reason: 'ACCOUNT_DISABLED' });
  });

  it('a deleted account no longer exists for new connections (407) and its live ones are cut', async () => {
    const c = await customer([[50, 30]]);
    await cache.refresh();
    expect(cache.authenticate(c.username, 'Secret123')).toMatchObject({ ok: true });
    expect((await call(t.app, 'DELETE', `/api/proxy/dynamic/${c.accountId}`, { token: c.token })).status).toBe(200);
    await cache.refresh();
    // docs/gateway.md: BAD_CREDENTIALS for an unknown or deleted account; enforcement cuts what is open.
    expect(cache.authenticate(c.username, 'Secret123')).toEqual({ ok: false, reason: 'BAD_CREDENTIALS' });
    expect(cache.standing(c.accountId)).toBe('ACCOUNT_DISABLED');
  });

  it('a used-up or expired balance and a disabled owner stop the account', async () => {
    const c = await customer([[2, 1]]);
    await cache.refresh();
    expect(cache.standing(c.accountId)).toBeNull();
    await store.flush('gw-d', c.accountId, [delta(c, 0, 2 * MB)]);
    await cache.refresh();
    expect(cache.standing(c.accountId)).toBe('NO_TRAFFIC');

    const d = await customer([[2, 1]]);
    await cache.refresh();
    expect(cache.standing(d.accountId)).toBeNull();
    t.clock.advance(DAY + 1000);
    await cache.refresh();
    expect(cache.standing(d.accountId)).toBe('NO_TRAFFIC');

    const e = await customer([[2, 30]]);
    await t.db.db.updateTable('users').set({ status: 'disabled' }).where('id', '=', e.user.id).execute();
    await cache.refresh();
    expect(cache.standing(e.accountId)).toBe('ACCOUNT_DISABLED');
  });

  it("names, with each figure, the last of this gateway's batches it includes (byte budgets)", async () => {
    const c = await customer([[10, 30]], 8 * MB);
    const own = new AccountCache(new AccountCacheRepository(t.db.db), t.clock, new SealedBox(t.config.APP_SECRET, SEAL_LABELS.proxyPassword), { gatewayId: 'gw-seen', defaultMaxConnections: 4 });
    await own.refresh();
    expect(own.allowance(c.accountId)).toEqual({ balance: 10 * MB, balanceSeq: 0, capLeft: 8 * MB, capSeq: 0, maxConnections: 4 });
    await store.flush('gw-seen', 41, [delta(c, 0, 1 * MB)]);
    // Another gateway's batch changes the figures but is not this gateway's to subtract.
    await store.flush('gw-elsewhere', 99, [delta(c, 0, 1 * MB)]);
    await own.refresh();
    expect(own.allowance(c.accountId)).toEqual({ balance: 8 * MB, balanceSeq: 41, capLeft: 6 * MB, capSeq: 41, maxConnections: 4 });
    expect(own.usageSeen()).toBe(41);
    await store.flush('gw-seen', 42, [delta(c, 0, 1 * MB)]);
    await own.refreshUser(c.user.id);
    expect(own.allowance(c.accountId)).toMatchObject({ balance: 7 * MB, balanceSeq: 42, capLeft: 5 * MB, capSeq: 42 });
    // An account's own limit wins over the operator's default.
    await call(t.app, 'PUT', `/api/proxy/dynamic/${c.accountId}`, { token: c.token, body: { maxConnections: 2 } });
    await own.refreshUser(c.user.id);
    expect(own.allowance(c.accountId)?.maxConnections).toBe(2);
  });

  it('GET /traffic charts usage by hour and day, per country and per account', async () => {
    const c = await customer([[100, 30]]);
    const other = await call(t.app, 'POST', '/api/proxy/dynamic', { token: c.token, body: { username: `o${c.user.id}x${++seq}`, password: 'Secret123' } });
    const otherId = other.body.data.id as number;
    await store.flush('gw-e', c.user.id, [delta(c, 1 * MB, 3 * MB, 'US'), { ...delta(c, 0, 2 * MB, 'JP'), accountId: otherId }]);
    const day = await call(t.app, 'GET', '/api/traffic?granularity=day&days=7', { token: c.token });
    expect(day.status).toBe(200);
    expect(day.body.data.series).toHaveLength(7);
    expect(day.body.data.series.at(-1)).toEqual({ bucket: hour().slice(0, 10), bytesUp: 1 * MB, bytesDown: 5 * MB });
    expect(day.body.data.series.slice(0, 6).every((p: { bytesDown: number }) => p.bytesDown === 0)).toBe(true);
    expect(day.body.data.byCountry).toEqual([
      { country: 'US', bytes: 4 * MB },
      { country: 'JP', bytes: 2 * MB },
    ]);
    expect(day.body.data.byAccount.map((a: { accountId: number; bytes: number }) => [a.accountId, a.bytes])).toEqual([
      [c.accountId, 4 * MB],
      [otherId, 2 * MB],
    ]);
    expect(day.body.data.balanceBytes).toBe(94 * MB);

    const hours = await call(t.app, 'GET', `/api/traffic?granularity=hour&days=1&accountId=${otherId}`, { token: c.token });
    expect(hours.body.data.series).toHaveLength(24);
    expect(hours.body.data.series.at(-1)).toEqual({ bucket: hour(), bytesUp: 0, bytesDown: 2 * MB });
    expect(hours.body.data.byCountry).toEqual([{ country: 'JP', bytes: 2 * MB }]);

    // Someone else's account id filters to nothing, never to their data.
    const stranger = await signedIn(t);
    const peek = await call(t.app, 'GET', `/api/traffic?accountId=${otherId}`, { token: stranger.token });
    expect(peek.body.data.byAccount).toEqual([]);
    expect((await call(t.app, 'GET', '/api/traffic?days=91', { token: c.token })).status).toBe(400);
  });

  it('counts bytes per provider and their revenue in the same batch: the price per byte of the grants charged', async () => {
    await seedCatalogue(t);
    await configureMethod(t, admin, 'manual', { instructionsEn: 'Pay by bank transfer' });
    const c = await customer([[1, 30]]);
    const pkg = await t.db.db.selectFrom('packages').select(['id', 'price', 'bytes']).where('enabled', '=', 1).orderBy('id').executeTakeFirstOrThrow();
    const orderNo = await buy(t, c.token, pkg.id, 'manual');
    expect((await call(t.app, 'POST', '/api/manage/order-verify', { token: admin, body: { orderNo } })).status).toBe(200);
    // The given 1 MB expires first and is used first (no revenue); the rest comes from the package.
    const providers = [{ ...delta(c, 2 * MB, 1 * MB), providerId: 7 }, { ...delta(c, 0, 1 * MB, 'DE'), providerId: 8 }, delta(c, 0, 2 * MB, 'JP')];
    await store.flush('gw-rev', 1, providers);
    const rows = await t.db.db.selectFrom('provider_usage_daily').select(['provider_id', 'country', 'bytes', 'revenue_micro']).where('provider_id', 'in', [7, 8]).orderBy('provider_id').execute();
    const paid = 6 * MB - 1 * MB;
    const perByteMicro = (Number(pkg.price) * 1_000_000) / Number(pkg.bytes);
    // The batch's revenue (5 MB at the package's price) shared by bytes: 3 of 6 MB and 1 of 6 MB.
    expect(rows.map((r) => ({ ...r, bytes: Number(r.bytes), revenue_micro: Number(r.revenue_micro) }))).toEqual([
      { provider_id: 7, country: 'US', bytes: 3 * MB, revenue_micro: Math.round((paid * perByteMicro * 3) / 6) },
      { provider_id: 8, country: 'DE', bytes: 1 * MB, revenue_micro: Math.round((paid * perByteMicro * 1) / 6) },
    ]);
    // Retried, the batch changes nothing.
    await store.flush('gw-rev', 1, providers);
    const again = await t.db.db.selectFrom('provider_usage_daily').select(sql<number>`sum(bytes)`.as('n')).where('provider_id', 'in', [7, 8]).executeTakeFirstOrThrow();
    expect(Number(again.n)).toBe(4 * MB);
  });
});

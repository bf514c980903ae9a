import type { Kysely, Transaction } from 'kysely';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { call } from '../../../test/auth-flows';
import { PROXY_PASSWORD, gatewayCustomer } from '../../../test/store-gateway-kit';
import { DIALECTS, type TestApp, createTestApp } from '../../../test/test-app';
import { signedIn } from '../../../test/commerce';
import { openDatabase } from '../../db/database';
import type { Database } from '../../db/schema';
import { DAY } from '../../lib/clock';
import { SEAL_LABELS, SealedBox } from '../../lib/sealed-box';
import { UserRepository } from '../../modules/auth/user-repository';
import type { UsageDelta } from '../ports';
import { AccountCache, type CacheOptions } from './account-cache';
import { AccountCacheRepository } from './account-cache-repository';
import { LoginFailureRepository } from './login-failure-repository';
import { UsageRepository } from './usage-repository';

const MB = 1024 ** 2;
const NOTHING = { full: false, users: 0, accounts: 0, balances: 0 };

/**
 * The account cache re-reads only what changed (docs/gateway.md, "Account cache"): after each kind of
 * change an incremental refresh shows it and reads that user alone; with no change it reads no row.
 */
describe.each(DIALECTS)('account cache refreshes on %s', (dialect) => {
  let t: TestApp;
  let admin: string;
  let usage: UsageRepository;
  let cache: AccountCache;
  let seq = 0;

  beforeAll(async () => {
    t = await createTestApp(dialect);
    usage = new UsageRepository(t.db.db, t.clock);
  });
  afterAll(() => t.close());

  const newCache = (opts: CacheOptions = {}, rows = new AccountCacheRepository(t.db.db)) =>
    new AccountCache(rows, t.clock, new SealedBox(t.config.APP_SECRET, SEAL_LABELS.proxyPassword), { gatewayId: 'gw-cache', ...opts });
  const customer = (grants: [number, number][] = [[10 * MB, 30]]) => gatewayCustomer(t, admin, grants);
  const hour = () => new Date(Math.floor(t.clock.now().getTime() / 3_600_000) * 3_600_000).toISOString();
  const delta = (c: { accountId: number; user: { id: number } }, bytes: number): UsageDelta => ({ accountId: c.accountId, userId: c.user.id, hour: hour(), country: 'US', bytesUp: 0, bytesDown: bytes });
  const put = (c: { token: string; accountId: number }, body: Record<string, unknown>) => call(t.app, 'PUT', `/api/proxy/dynamic/${c.accountId}`, { token: c.token, body });
  const oneUser = { full: false, users: 1 };

  beforeEach(async () => {
    // Signed in again each time: a test below moves the clock past a session's life.
    admin = (await signedIn(t, 'admin')).token;
    cache = newCache();
    expect((await cache.refresh()).full).toBe(true);
    expect(await cache.refresh()).toEqual(NOTHING);
  });

  it('reads no row when nothing changed, nor for a change it does not read (a remark, failed logins)', async () => {
    const c = await customer();
    expect(await cache.refresh()).toMatchObject({ ...oneUser, accounts: 1, balances: 1 });
    expect(await cache.refresh()).toEqual(NOTHING);
    expect((await put(c, { remark: 'for the crawler' })).status).toBe(200);
    await new LoginFailureRepository(t.db.db).recordLoginFailures([{ accountId: c.accountId, failures: 3, lastAt: t.clock.now().getTime() }]);
    expect(await cache.refresh()).toEqual(NOTHING);
  });

  it('a recharge and a usage flush', async () => {
    const c = await customer([]);
    await cache.refresh();
    expect(cache.standing(c.accountId)).toBe('NO_TRAFFIC');
    expect((await call(t.app, 'POST', '/api/manage/recharge', { token: admin, body: { userId: c.user.id, bytes: 10 * MB, validityDays: 30, note: 'test' } })).status).toBe(200);
    expect(await cache.refresh()).toMatchObject({ ...oneUser, balances: 1 });
    expect(cache.allowance(c.accountId)).toMatchObject({ balance: 10 * MB, capLeft: null });

    await usage.flush('gw-cache', 7, [delta(c, 4 * MB)]);
    expect(await cache.refresh()).toMatchObject(oneUser);
    // The figures name the batch they include, so the gateway does not subtract it again (byte budgets).
    expect(cache.allowance(c.accountId)).toMatchObject({ balance: 6 * MB, balanceSeq: 7 });
    expect(cache.usageSeen()).toBe(7);
  });

  it('an account created, given a lower cap, a connection limit, a new password, disabled and deleted', async () => {
    const c = await customer();
    await cache.refresh();
    const made = await call(t.app, 'POST', '/api/proxy/dynamic', { token: c.token, body: { username: `second${c.user.id}x${++seq}`, password: PROXY_PASSWORD } });
    const second = made.body.data as { id: number; username: string };
    expect(cache.authenticate(second.username, PROXY_PASSWORD)).toEqual({ ok: false, reason: 'BAD_CREDENTIALS' });
    expect(await cache.refresh()).toMatchObject({ ...oneUser, accounts: 2 });
    expect(cache.authenticate(second.username, PROXY_PASSWORD)).toMatchObject({ ok: true, accountId: second.id });

    await usage.flush('gw-cache', 8, [delta(c, 2 * MB)]);
    expect((await put(c, { limitBytes: 1 * MB, maxConnections: 3 })).status).toBe(200);
    expect(await cache.refresh()).toMatchObject(oneUser);
    expect(cache.standing(c.accountId)).toBe('ACCOUNT_CAP');
    expect(cache.allowance(c.accountId)).toMatchObject({ capLeft: -1 * MB, maxConnections: 3 });

    expect((await put({ ...c, accountId: second.id }, { password: 'Another456' })).status).toBe(200);
    expect(await cache.refresh()).toMatchObject(oneUser);
    expect(cache.authenticate(second.username, PROXY_PASSWORD)).toMatchObject({ ok: false, reason: 'BAD_CREDENTIALS' });
    expect(cache.authenticate(second.username, 'Another456')).toMatchObject({ ok: true });

    expect((await put({ ...c, accountId: second.id }, { status: 'disabled' })).status).toBe(200);
    expect(await cache.refresh()).toMatchObject(oneUser);
    expect(cache.authenticate(second.username, 'Another456')).toEqual({ ok: false, reason: 'ACCOUNT_DISABLED' });

    expect((await call(t.app, 'DELETE', `/api/proxy/dynamic/${second.id}`, { token: c.token })).status).toBe(200);
    expect(await cache.refresh()).toMatchObject({ ...oneUser, accounts: 1 });
    expect(cache.authenticate(second.username, 'Another456')).toEqual({ ok: false, reason: 'BAD_CREDENTIALS' });
    expect(cache.standing(second.id)).toBe('ACCOUNT_DISABLED');
    expect(cache.userOf(second.id)).toBeUndefined();
  });

  it('a user disabled, and a grant deleted', async () => {
    const c = await customer();
    await cache.refresh();
    await new UserRepository(t.db.db).update(c.user.id, { status: 'disabled' });
    expect(await cache.refresh()).toMatchObject(oneUser);
    expect(cache.authenticate(c.username, PROXY_PASSWORD)).toEqual({ ok: false, reason: 'ACCOUNT_DISABLED' });

    const d = await customer();
    await cache.refresh();
    // No code deletes grants today; a script or a later module may, and the owner is re-read all the same.
    await t.db.db.deleteFrom('traffic_grants').where('user_id', '=', d.user.id).execute();
    expect(await cache.refresh()).toMatchObject({ ...oneUser, balances: 0 });
    expect(cache.standing(d.accountId)).toBe('NO_TRAFFIC');
  });

  it('a grant expiring by time, without any write', async () => {
    const c = await customer([
      [1 * MB, 1],
      [4 * MB, 30],
    ]);
    const other = await customer([[1 * MB, 30]]);
    await cache.refresh();
    expect(cache.allowance(c.accountId)?.balance).toBe(5 * MB);
    t.clock.advance(DAY + 1000);
    expect(await cache.refresh()).toMatchObject({ ...oneUser, balances: 1 });
    expect(cache.allowance(c.accountId)?.balance).toBe(4 * MB);
    expect(cache.allowance(other.accountId)?.balance).toBe(1 * MB);
    expect(await cache.refresh()).toEqual(NOTHING);
    // Every 30-day grant of this file's customers ends now: all of them, and nobody else, are re-read.
    t.clock.advance(30 * DAY);
    const before = await t.db.db.selectFrom('traffic_grants').select('user_id').distinct().execute();
    expect(await cache.refresh()).toMatchObject({ full: false, users: before.length, balances: 0 });
    expect(cache.standing(c.accountId)).toBe('NO_TRAFFIC');
    expect(cache.standing(other.accountId)).toBe('NO_TRAFFIC');
  });

  it('a change committed while a refresh reads is read by the next one', async () => {
    const a = await customer();
    const b = await customer();
    await cache.refresh();
    let once = true;
    // The other account is disabled after the refresh asked what changed and before it reads the rows.
    const interleaved = new (class extends AccountCacheRepository {
      override async accounts(gatewayId: string, userIds?: number[]) {
        if (userIds && once) {
          once = false;
          expect((await put(b, { status: 'disabled' })).status).toBe(200);
        }
        return super.accounts(gatewayId, userIds);
      }
    })(t.db.db);
    const racing = newCache({}, interleaved);
    await racing.refresh();
    expect((await put(a, { limitBytes: 1 * MB })).status).toBe(200);
    expect(await racing.refresh()).toMatchObject(oneUser);
    expect(racing.allowance(a.accountId)?.capLeft).toBe(1 * MB);
    expect(racing.standing(b.accountId)).toBeNull();
    expect(await racing.refresh()).toMatchObject(oneUser);
    expect(racing.standing(b.accountId)).toBe('ACCOUNT_DISABLED');
  });

  it('a write still in flight during a refresh is read once it commits, also when a later one commits first', async () => {
    const a = await customer();
    const b = await customer();
    await cache.refresh();
    // A second handle, as another process would have (SQLite: another connection on the same file).
    const other = dialect === 'sqlite' ? openDatabase({ dataDir: t.config.dataDir }) : t.db;
    try {
      const first = await holdOpen(other.db, (trx) => trx.updateTable('proxy_accounts').set({ status: 'disabled' }).where('id', '=', a.accountId).execute());
      if (dialect === 'postgres') {
        // Begun after the first and committed before it: its version is the higher one, yet visible first.
        expect((await put(b, { status: 'disabled' })).status).toBe(200);
      }
      expect(await cache.refresh()).toMatchObject({ users: dialect === 'postgres' ? 1 : 0 });
      expect(cache.standing(a.accountId)).toBeNull();
      await first.commit();
      if (dialect === 'postgres') {
        const versions = await t.db.db.selectFrom('proxy_accounts').select(['id', 'change_version']).where('id', 'in', [a.accountId, b.accountId]).execute();
        const of = (id: number) => Number(versions.find((v) => v.id === id)!.change_version);
        expect(of(a.accountId)).toBeLessThan(of(b.accountId));
        expect(cache.standing(b.accountId)).toBe('ACCOUNT_DISABLED');
      }
      expect(await cache.refresh()).toMatchObject({ ...oneUser, accounts: 1 });
      expect(cache.standing(a.accountId)).toBe('ACCOUNT_DISABLED');
      expect(await cache.refresh()).toEqual(NOTHING);
    } finally {
      if (other !== t.db) await other.db.destroy();
    }
  });

  it('refreshes run one at a time; a call made during one is served by the next', async () => {
    const c = await customer();
    await cache.refresh();
    const running = cache.refresh();
    expect((await put(c, { status: 'disabled' })).status).toBe(200);
    const next = cache.refresh();
    const alsoNext = cache.refreshUser(c.user.id);
    await running;
    expect((await next).full).toBe(false);
    await alsoNext;
    expect(cache.standing(c.accountId)).toBe('ACCOUNT_DISABLED');
  });

  it('reads everything again once the last whole read is fullReloadMs old', async () => {
    await customer();
    const always = newCache({ fullReloadMs: 0 });
    const whole = await always.refresh();
    expect(whole.full).toBe(true);
    expect(whole.accounts).toBeGreaterThan(0);
    expect(await always.refresh()).toEqual(whole);
    expect(await cache.reload()).toEqual(whole);
  });
});

/** Runs `write` in a transaction left open until `commit()`. */
async function holdOpen(db: Kysely<Database>, write: (trx: Transaction<Database>) => Promise<unknown>) {
  let release!: () => void;
  const gate = new Promise<void>((r) => (release = r));
  let written!: () => void;
  const ready = new Promise<void>((r) => (written = r));
  const done = db.transaction().execute(async (trx) => {
    await write(trx);
    written();
    await gate;
  });
  await Promise.race([ready, done]);
  return {
    async commit() {
      release();
      await done;
    },
  };
}

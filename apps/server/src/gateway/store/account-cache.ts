import { timingSafeEqual } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { AddressMatcher, type AllowlistRange, parseAllowlistAddress } from '../../lib/allowlist-address';
import { type Clock, iso } from '../../lib/clock';
import type { SealedBox } from '../../lib/sealed-box';
import { upstreamUrl } from '../../shared/upstream-url';
import type { Allowance, AuthResult, GatewayAuthority, ListenerProtocol, PinnedExit, PortLeaseView, Refusal } from '../ports';
import type { AccountCacheRepository, AccountRow, AllowlistRow, BalanceRow, Horizon, LeaseRow, StaticRow } from './account-cache-repository';

/**
 * A static IP's login as the gateway serves it (docs/gateway.md#static-ips): the one exit it may use and
 * until when. `released`: the allocation is released, its inventory row retired, or it has no allocation.
 */
interface StaticLogin {
  pinned: PinnedExit;
  released: boolean;
  grace: boolean;
  expiresMs: number;
  /** As stored: the upstream password is opened again only when this changes. */
  sealed: string | null;
  password: string | null;
}

interface CachedAccount {
  id: number;
  userId: number;
  username: string;
  /** As stored: the password is opened again only when this changes. */
  sealed: string;
  password: Buffer;
  active: boolean;
  limitBytes: number | null;
  usedBytes: number;
  maxConnections: number | null;
  /** The last of this gateway's usage batches `usedBytes` includes (read in the same statement). */
  seenSeq: number;
  /** A static IP's login; null for a rotating account. */
  static: StaticLogin | null;
  /** Its allowlisted addresses must still send the password. */
  requirePassword: boolean;
}

/** Whose an allowlisted range is. */
interface Listing {
  userId: number;
  accountId: number;
  range: AllowlistRange;
}

interface Lease {
  key: string;
  userId: number;
  accountId: number;
  untilMs: number;
  session: PortLeaseView['session'];
}

/** Misses (an unknown login, an unlisted address, an unleased port) re-read the store at most this often. */
export const CATCH_UP_SPACING_MS = 100;

/** A user's balance, the last of this gateway's usage batches it includes, and when it first drops by time. */
interface Balance {
  left: number;
  seenSeq: number;
  expiresFirst: string;
}

export interface CacheOptions {
  /** The gateway whose usage batches the figures are matched with (byte budgets); none: no gateway. */
  gatewayId?: string;
  /** Operator default for accounts without their own limit of concurrent connections. */
  defaultMaxConnections?: number | null;
  /** A refresh reads everything again when the last whole read is older than this (default 5 minutes). */
  fullReloadMs?: number;
  /** Opens static IPs' upstream passwords (`SEAL_LABELS.staticUpstreamPassword`); needed once one has a password. */
  staticUpstreams?: SealedBox;
  /**
   * A static IP's login now exits elsewhere (a replacement, or its upstream edited): its live connections
   * must be cut, so none goes on through the old exit. Called after the refresh that read it.
   */
  onExitMoved?: (accountId: number) => void;
}

/** What one refresh read: whole or only what changed, how many users, account rows and balance rows. */
export interface RefreshSummary {
  full: boolean;
  users: number;
  accounts: number;
  balances: number;
}

/** The safety net under the change versions: a change they could not show (a user row deleted) lasts this long. */
export const FULL_RELOAD_MS = 5 * 60_000;

interface Request {
  full: boolean;
  users: Set<number>;
  done: Promise<RefreshSummary>;
  resolve(s: RefreshSummary): void;
  reject(err: unknown): void;
}

/**
 * The gateway's view of proxy accounts and balances, held in memory so a connection costs no query
 * (docs/gateway.md#cut-off-timing: the usage flushes refresh it). `refresh()` re-reads the
 * users whose accounts, status or grants changed since the last refresh (the store's change versions)
 * and those whose balance dropped by a grant's expiry, and everything every `fullReloadMs`; the gateway
 * calls it on a timer and after each flush. `refreshUser()` makes sure one user is re-read, on a cut-off
 * event.
 *
 * Refreshes run one at a time: a call made while one runs is served by the next, which starts after it
 * and serves every call made meanwhile. So each call resolves once the cache shows the store as of some
 * moment after the call, and no older read is ever applied over a newer one.
 */
export class AccountCache implements GatewayAuthority {
  private byName = new Map<string, CachedAccount>();
  private byId = new Map<number, CachedAccount>();
  private byUser = new Map<number, CachedAccount[]>();
  private balance = new Map<number, Balance>();
  /** No balance drops by time before this (a lower bound: it may be early, never late). */
  private soonestExpiry: string | null = null;
  /** Versions the last refresh had not seen; none before the first whole read. */
  private horizon: Horizon | null = null;
  private lastFullAt = -Infinity;
  private wholeSeen = 0;
  /** Static logins whose exit the read in progress found changed. */
  private moved: number[] = [];
  /** Allowlisted ranges, matched per client address; and each user's, to replace them on a re-read. */
  private listed = new AddressMatcher<Listing>();
  private listedByUser = new Map<number, Listing[]>();
  /** Port leases by `protocol:port`, and each user's. */
  private leases = new Map<string, Lease>();
  private leasesByUser = new Map<number, Lease[]>();
  /** A catch-up read not started yet: misses meanwhile wait for the same one. */
  private pendingCatchUp: Promise<void> | null = null;
  private lastCatchUp = -Infinity;

  private running = false;
  private queued: Request | null = null;

  private readonly gatewayId: string;
  private readonly fullReloadMs: number;

  constructor(
    private readonly rows: AccountCacheRepository,
    private readonly clock: Clock,
    private readonly box: SealedBox,
    private readonly opts: CacheOptions = {},
  ) {
    this.gatewayId = opts.gatewayId ?? '';
    this.fullReloadMs = opts.fullReloadMs ?? FULL_RELOAD_MS;
  }

  /** Re-reads what changed (everything, when the last whole read is `fullReloadMs` old). */
  refresh(): Promise<RefreshSummary> {
    return this.request(false);
  }

  /** Re-reads everything. */
  reload(): Promise<RefreshSummary> {
    return this.request(true);
  }

  /** Re-reads what changed, and this user's accounts (a deleted one drops out) and balance in any case. */
  async refreshUser(userId: number): Promise<void> {
    await this.request(false, userId);
  }

  private request(full: boolean, userId?: number): Promise<RefreshSummary> {
    if (!this.queued) {
      let resolve!: (s: RefreshSummary) => void;
      let reject!: (err: unknown) => void;
      const done = new Promise<RefreshSummary>((res, rej) => {
        resolve = res;
        reject = rej;
      });
      this.queued = { full: false, users: new Set(), done, resolve, reject };
    }
    const r = this.queued;
    r.full ||= full;
    if (userId !== undefined) r.users.add(userId);
    if (!this.running) this.runQueued();
    return r.done;
  }

  private runQueued(): void {
    const r = this.queued;
    if (!r) return;
    this.queued = null;
    this.running = true;
    this.read(r.full, r.users)
      .then(r.resolve, r.reject)
      .finally(() => {
        this.running = false;
        this.runQueued();
      });
  }

  private async read(full: boolean, forced: Set<number>): Promise<RefreshSummary> {
    const now = iso(this.clock.now());
    const started = performance.now();
    // First, so that whatever commits while the rows are read is unseen by it and read again next time.
    const { horizon, seen } = await this.rows.horizon(this.gatewayId);
    let summary: RefreshSummary;
    if (full || !this.horizon || started - this.lastFullAt >= this.fullReloadMs) {
      const [accounts, balances, listed, leases] = await Promise.all([this.rows.accounts(this.gatewayId), this.rows.balances(this.gatewayId, now), this.rows.allowlist(), this.rows.leases(now)]);
      this.replaceAll(accounts, balances);
      this.replaceListings(null, listed, leases);
      this.lastFullAt = started;
      summary = { full: true, users: this.byUser.size, accounts: accounts.length, balances: balances.length };
    } else {
      const users = new Set([...forced, ...(await this.rows.changedUsers(this.horizon)), ...this.expiredBy(now)]);
      const ids = [...users];
      const [accounts, balances, listed, leases] = ids.length
        ? await Promise.all([this.rows.accounts(this.gatewayId, ids), this.rows.balances(this.gatewayId, now, ids), this.rows.allowlist(ids), this.rows.leases(now, ids)])
        : [[], [], [], []];
      this.replaceUsers(ids, accounts, balances);
      this.replaceListings(ids, listed, leases);
      summary = { full: false, users: ids.length, accounts: accounts.length, balances: balances.length };
    }
    this.horizon = horizon;
    // Every figure now includes every batch up to this one: a user touched by a later batch than their
    // figure's was changed by it, and re-read above.
    this.wholeSeen = seen;
    const moved = this.moved;
    this.moved = [];
    for (const accountId of moved) this.opts.onExitMoved?.(accountId);
    return summary;
  }

  private replaceAll(accounts: AccountRow[], balances: BalanceRow[]): void {
    const old = this.byId;
    this.byName = new Map();
    this.byId = new Map();
    this.byUser = new Map();
    for (const a of accounts) this.add(this.entry(a, old.get(a.id)));
    this.balance = new Map();
    this.soonestExpiry = null;
    for (const b of balances) this.setBalance(b);
  }

  private replaceUsers(userIds: number[], accounts: AccountRow[], balances: BalanceRow[]): void {
    const old = new Map<number, CachedAccount>();
    for (const userId of userIds) {
      for (const a of this.byUser.get(userId) ?? []) {
        old.set(a.id, a);
        this.byId.delete(a.id);
        this.byName.delete(a.username);
      }
      this.byUser.delete(userId);
      this.balance.delete(userId);
    }
    for (const a of accounts) this.add(this.entry(a, old.get(a.id)));
    for (const b of balances) this.setBalance(b);
  }

  /** Replaces the allowlist and leases of these users (null: of everyone) with what was read. */
  private replaceListings(userIds: number[] | null, listed: AllowlistRow[], leases: LeaseRow[]): void {
    if (userIds === null) {
      this.listed = new AddressMatcher();
      this.listedByUser = new Map();
      this.leases = new Map();
      this.leasesByUser = new Map();
    } else {
      for (const userId of userIds) {
        for (const l of this.listedByUser.get(userId) ?? []) this.listed.delete(l.range, l);
        this.listedByUser.delete(userId);
        for (const l of this.leasesByUser.get(userId) ?? []) if (this.leases.get(l.key) === l) this.leases.delete(l.key);
        this.leasesByUser.delete(userId);
      }
    }
    for (const row of listed) {
      const range = parseAllowlistAddress(row.address);
      if (!range) continue;
      const l: Listing = { userId: row.user_id, accountId: row.account_id, range };
      this.listed.add(range, l);
      push(this.listedByUser, l.userId, l);
    }
    for (const row of leases) {
      const l: Lease = {
        key: `${row.protocol}:${row.port}`,
        userId: row.user_id,
        accountId: row.account_id,
        untilMs: Date.parse(row.until),
        session:
          row.session === null
            ? null
            : { country: row.country?.toUpperCase() ?? null, state: row.state, city: row.city, session: row.session, lifeMinutes: Number(row.life_minutes) },
      };
      // A port re-leased to another user: the newer lease (read now) replaces the older.
      this.leases.set(l.key, l);
      push(this.leasesByUser, l.userId, l);
    }
  }

  private add(a: CachedAccount): void {
    // An account moved to another user (nothing does that today) leaves its old owner's list.
    const before = this.byId.get(a.id);
    if (before && before.userId !== a.userId) {
      const theirs = this.byUser.get(before.userId)?.filter((x) => x.id !== a.id) ?? [];
      if (theirs.length) this.byUser.set(before.userId, theirs);
      else this.byUser.delete(before.userId);
    }
    this.byName.set(a.username, a);
    this.byId.set(a.id, a);
    const mine = this.byUser.get(a.userId);
    if (mine) mine.push(a);
    else this.byUser.set(a.userId, [a]);
  }

  private setBalance(b: BalanceRow): void {
    this.balance.set(b.user_id, { left: Number(b.left), seenSeq: Number(b.seen), expiresFirst: b.expires_first });
    if (this.soonestExpiry === null || b.expires_first < this.soonestExpiry) this.soonestExpiry = b.expires_first;
  }

  /** Users whose balance counts a grant that has expired by `now`. A walk over balances only when one is due. */
  private expiredBy(now: string): number[] {
    if (this.soonestExpiry === null || this.soonestExpiry > now) return [];
    const due: number[] = [];
    let soonest: string | null = null;
    for (const [userId, b] of this.balance) {
      if (b.expiresFirst <= now) due.push(userId);
      else if (soonest === null || b.expiresFirst < soonest) soonest = b.expiresFirst;
    }
    // The due users' new balances lower it again as they are read.
    this.soonestExpiry = soonest;
    return due;
  }

  /** The user a cached account belongs to (to tell the other gateways which user to re-read). */
  userOf(accountId: number): number | undefined {
    return this.byId.get(accountId)?.userId;
  }

  private entry(a: AccountRow, known: CachedAccount | undefined): CachedAccount {
    // Opening a sealed password costs a little; reuse it when the row did not change.
    const password = known && known.sealed === a.password_sealed ? known.password : Buffer.from(this.box.open(a.password_sealed));
    return {
      id: a.id,
      userId: a.user_id,
      username: a.username,
      sealed: a.password_sealed,
      password,
      active: a.status === 'active' && a.user_status === 'active',
      // A cap that only alerts (pause_at_cap 0) is no limit to the gateway.
      limitBytes: a.limit_bytes === null || !a.pause_at_cap ? null : Number(a.limit_bytes),
      usedBytes: Number(a.used_bytes),
      maxConnections: a.max_connections ?? this.opts.defaultMaxConnections ?? null,
      seenSeq: Number(a.seen),
      static: a.kind === 'static' ? this.staticLogin(a, known?.static ?? null) : null,
      requirePassword: Boolean(a.require_password),
    };
  }

  private staticLogin(a: AccountRow, known: StaticLogin | null): StaticLogin {
    const s: StaticRow | null = a.static;
    if (!s) return { pinned: { exit: { kind: 'direct', id: 'direct' }, country: null }, released: true, grace: false, expiresMs: 0, sealed: null, password: null };
    let password = known && known.sealed === s.password_sealed ? known.password : null;
    if (s.password_sealed !== null && password === null) {
      if (!this.opts.staticUpstreams) throw new Error('static upstream passwords cannot be opened: no staticUpstreams box');
      password = this.opts.staticUpstreams.open(s.password_sealed);
    }
    const url = upstreamUrl({ protocol: s.protocol, host: s.host, port: s.port, username: s.username, password });
    const exit = { kind: 'upstream' as const, url, id: `static-${s.inventory_id}`, guarded: true };
    const was = known?.pinned.exit;
    if (was && was.kind === 'upstream' && (was.id !== exit.id || was.url !== exit.url)) this.moved.push(a.id);
    return {
      pinned: { exit, country: s.country ? s.country.toUpperCase() : null },
      released: s.status === 'released' || s.inventory_status === 'retired',
      grace: s.status === 'grace',
      expiresMs: Date.parse(s.expires_at),
      sealed: s.password_sealed,
      password,
    };
  }

  authenticate(account: string, password: string): AuthResult {
    const a = this.byName.get(account.toLowerCase());
    const given = Buffer.from(password);
    if (!a) return { ok: false, reason: 'BAD_CREDENTIALS' };
    // The account is named on a wrong password: its owner sees the failed logins (never the guesses).
    if (a.password.length !== given.length || !timingSafeEqual(a.password, given)) return { ok: false, reason: 'BAD_CREDENTIALS', accountId: a.id };
    const refusal = this.standing(a.id);
    if (refusal) return { ok: false, reason: refusal };
    return a.static ? { ok: true, accountId: a.id, userId: a.userId, pinned: a.static.pinned } : { ok: true, accountId: a.id, userId: a.userId };
  }

  authenticateSource(ip: string): AuthResult {
    const listing = this.listed.match(ip);
    const a = listing && this.byId.get(listing.accountId);
    if (!a || a.requirePassword) return { ok: false, reason: 'BAD_CREDENTIALS' };
    return this.admitted(a);
  }

  portLease(protocol: ListenerProtocol, port: number): PortLeaseView | null {
    const l = this.leases.get(`${protocol}:${port}`);
    if (!l || l.untilMs <= this.clock.now().getTime()) return null;
    const a = this.byId.get(l.accountId);
    const auth: AuthResult = !a ? { ok: false, reason: 'ACCOUNT_DISABLED' } : a.requirePassword ? { ok: false, reason: 'BAD_CREDENTIALS' } : this.admitted(a);
    return { userId: l.userId, auth, session: l.session };
  }

  sourceListed(key: { userId: number; source?: string }): boolean {
    if (key.source === undefined) return true;
    const listing = this.listed.match(key.source);
    return listing !== undefined && listing.userId === key.userId && this.byId.get(listing.accountId)?.requirePassword === false;
  }

  catchUp(): Promise<void> {
    if (this.pendingCatchUp) return this.pendingCatchUp;
    const wait = Math.max(0, this.lastCatchUp + CATCH_UP_SPACING_MS - performance.now());
    // Cleared as the read is asked for: a miss after that point needs a read that starts after it.
    const p = sleep(wait, undefined, { ref: false })
      .then(() => {
        this.pendingCatchUp = null;
        this.lastCatchUp = performance.now();
        return this.refresh();
      })
      .then(
        () => undefined,
        () => undefined,
      );
    this.pendingCatchUp = p;
    return p;
  }

  private admitted(a: CachedAccount): AuthResult {
    const refusal = this.standing(a.id);
    if (refusal) return { ok: false, reason: refusal };
    return a.static ? { ok: true, accountId: a.id, userId: a.userId, username: a.username, pinned: a.static.pinned } : { ok: true, accountId: a.id, userId: a.userId, username: a.username };
  }

  standing(accountId: number): Refusal | null {
    const a = this.byId.get(accountId);
    if (!a || !a.active) return 'ACCOUNT_DISABLED';
    // A static IP draws no traffic balance; its expiry is checked against the clock here, so it needs no write to take effect.
    if (a.static) return a.static.released ? 'STATIC_RELEASED' : a.static.grace || this.clock.now().getTime() >= a.static.expiresMs ? 'STATIC_EXPIRED' : null;
    if (a.limitBytes !== null && a.usedBytes >= a.limitBytes) return 'ACCOUNT_CAP';
    if ((this.balance.get(a.userId)?.left ?? 0) <= 0) return 'NO_TRAFFIC';
    return null;
  }

  allowance(accountId: number): Allowance | null {
    const a = this.byId.get(accountId);
    if (!a) return null;
    const b = this.balance.get(a.userId);
    return {
      // No row: nothing left (the query skips spent and expired grants), whatever this gateway metered.
      // A static IP's connections draw on no balance (they join no balance pool): nothing to bound.
      balance: a.static ? Infinity : (b?.left ?? 0),
      balanceSeq: b?.seenSeq ?? Number.MAX_SAFE_INTEGER,
      capLeft: a.limitBytes === null ? null : a.limitBytes - a.usedBytes,
      capSeq: a.seenSeq,
      maxConnections: a.maxConnections,
    };
  }

  usageSeen(): number {
    return this.wholeSeen;
  }
}

function push<K, V>(map: Map<K, V[]>, key: K, value: V): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}

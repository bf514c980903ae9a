import { timingSafeEqual } from 'node:crypto';
import { type Clock, iso } from '../../lib/clock';
import type { SealedBox } from '../../lib/sealed-box';
import type { Allowance, AuthResult, GatewayAuthority, Refusal } from '../ports';
import type { AccountCacheRepository } from './account-cache-repository';
import { type AccountRow } from './account-cache-repository';

interface CachedAccount {
  id: number;
  userId: number;
  username: string;
  password: Buffer;
  active: boolean;
  limitBytes: number | null;
  usedBytes: number;
  maxConnections: number | null;
  /** The last of this gateway's usage batches `usedBytes` includes (read in the same statement). */
  seenSeq: number;
}

/** A user's balance and the last of this gateway's usage batches it includes. */
interface Balance {
  left: number;
  seenSeq: number;
}


export interface CacheOptions {
  /** The gateway whose usage batches the figures are matched with (byte budgets); none: no gateway. */
  gatewayId?: string;
  /** Operator default for accounts without their own limit of concurrent connections. */
  defaultMaxConnections?: number | null;
}

/**
 * The gateway's view of proxy accounts and balances, held in memory so a connection costs no query;
 * the usage flushes refresh it (docs/gateway.md#cut-off-timing). `refresh()` reloads it whole;
 * the gateway calls it on a timer and after each flush. `refreshUser()` reloads one user's accounts and
 * balance, on a cut-off event.
 */
export class AccountCache implements GatewayAuthority {
  private byName = new Map<string, CachedAccount>();
  private byId = new Map<number, CachedAccount>();
  private balance = new Map<number, Balance>();
  private readonly sealedOf = new Map<number, string>();
  /**
   * Reads overlap (a timer reload, a flush, events), and one that started earlier may finish later: each
   * read takes a number, and nothing applies over what a later-started read already applied.
   */
  private reads = 0;
  private wholeApplied = 0;
  private readonly userApplied = new Map<number, number>();
  private wholeSeen = 0;

  private readonly gatewayId: string;

  constructor(
    private readonly rows: AccountCacheRepository,
    private readonly clock: Clock,
    private readonly box: SealedBox,
    private readonly opts: CacheOptions = {},
  ) {
    this.gatewayId = opts.gatewayId ?? '';
  }

  async refresh(): Promise<void> {
    const read = ++this.reads;
    const [accounts, balances] = await Promise.all([this.rows.accounts(this.gatewayId), this.rows.balances(this.gatewayId, iso(this.clock.now()))]);
    if (read < this.wholeApplied) return;
    const byName = new Map<string, CachedAccount>();
    const byId = new Map<number, CachedAccount>();
    const balance = new Map(balances.map((b) => [b.user_id, { left: Number(b.left), seenSeq: Number(b.seen) }]));
    // A user re-read on their own after this read began is newer here than this snapshot: keep it.
    const newer = new Set([...this.userApplied].filter(([, r]) => r > read).map(([u]) => u));
    for (const a of accounts) {
      if (newer.has(a.user_id)) continue;
      const entry = this.entry(a);
      byName.set(a.username, entry);
      byId.set(a.id, entry);
    }
    for (const a of this.byId.values()) {
      if (!newer.has(a.userId)) continue;
      byName.set(a.username, a);
      byId.set(a.id, a);
    }
    for (const userId of newer) {
      const left = this.balance.get(userId);
      if (left === undefined) balance.delete(userId);
      else balance.set(userId, left);
    }
    for (const [userId, r] of this.userApplied) if (r < read) this.userApplied.delete(userId);
    this.wholeApplied = read;
    // Both statements include at least the batches each read saw: the smaller is what every figure holds.
    this.wholeSeen = Math.min(accounts[0] ? Number(accounts[0].seen) : 0, balances[0] ? Number(balances[0].seen) : Infinity);
    this.byName = byName;
    this.byId = byId;
    this.balance = balance;
  }

  /** Re-reads one user's accounts (a deleted one drops out) and balance. */
  async refreshUser(userId: number): Promise<void> {
    const read = ++this.reads;
    const [accounts, balances] = await Promise.all([
      this.rows.accounts(this.gatewayId, userId),
      this.rows.balances(this.gatewayId, iso(this.clock.now()), userId),
    ]);
    if (read < this.wholeApplied || read < (this.userApplied.get(userId) ?? 0)) return;
    for (const a of [...this.byId.values()]) {
      if (a.userId !== userId) continue;
      this.byId.delete(a.id);
      this.byName.delete(a.username);
    }
    for (const a of accounts) {
      const entry = this.entry(a);
      this.byName.set(a.username, entry);
      this.byId.set(a.id, entry);
    }
    const left = balances[0];
    if (left) this.balance.set(userId, { left: Number(left.left), seenSeq: Number(left.seen) });
    else this.balance.delete(userId);
    this.userApplied.set(userId, read);
  }

  /** The user a cached account belongs to (to tell the other gateways which user to re-read). */
  userOf(accountId: number): number | undefined {
    return this.byId.get(accountId)?.userId;
  }

  private entry(a: AccountRow): CachedAccount {
    const known = this.byId.get(a.id);
    // Opening a sealed password costs a little; reuse it when the row did not change.
    const password = known && this.sealedOf.get(a.id) === a.password_sealed ? known.password : Buffer.from(this.box.open(a.password_sealed));
    this.sealedOf.set(a.id, a.password_sealed);
    return {
      id: a.id,
      userId: a.user_id,
      username: a.username,
      password,
      active: a.status === 'active' && a.user_status === 'active',
      limitBytes: a.limit_bytes === null ? null : Number(a.limit_bytes),
      usedBytes: Number(a.used_bytes),
      maxConnections: a.max_connections ?? this.opts.defaultMaxConnections ?? null,
      seenSeq: Number(a.seen),
    };
  }

  authenticate(account: string, password: string): AuthResult {
    const a = this.byName.get(account.toLowerCase());
    const given = Buffer.from(password);
    if (!a) return { ok: false, reason: 'BAD_CREDENTIALS' };
    // The account is named on a wrong password: its owner sees the failed logins (never the guesses).
    if (a.password.length !== given.length || !timingSafeEqual(a.password, given)) return { ok: false, reason: 'BAD_CREDENTIALS', accountId: a.id };
    const refusal = this.standing(a.id);
    return refusal ? { ok: false, reason: refusal } : { ok: true, accountId: a.id, userId: a.userId };
  }

  standing(accountId: number): Refusal | null {
    const a = this.byId.get(accountId);
    if (!a || !a.active) return 'ACCOUNT_DISABLED';
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
      balance: b?.left ?? 0,
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

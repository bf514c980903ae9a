import type { Socket } from 'node:net';
import { type ByteBudget, UNLIMITED } from './byte-budget';
import { IndexedSet } from './indexed-set';
import { holdTunnel, releaseTunnel } from './tunnel';

/** Who a client connection's bytes belong to (usage rows are per account, hour and exit country). */
export interface MeterKey {
  accountId: number;
  userId: number;
  country: string | null;
  /** The provider whose exit carries the bytes (usage per provider, docs/gateway.md#providers). */
  providerId?: number;
  /** Metered but drawing no traffic balance (a static IP's login): it joins no balance pool. */
  noBalance?: boolean;
  /** Admitted without credentials, for this allowlisted client address: cut when it is no longer listed. */
  source?: string;
}

export type RecordBytes = (key: MeterKey, bytesUp: number, bytesDown: number) => void;

/** Why a socket may not carry an account's bytes (claim), or why its account's connections were cut. */
export type ClaimRefusal = 'ACCOUNT_SWITCH' | 'NO_TRAFFIC' | 'ACCOUNT_CAP' | 'TOO_MANY_CONNECTIONS';

/** Called when a budget cuts connections: which account (for a balance, the one whose byte spent it). */
export type OnCut = (accountId: number, refusal: 'NO_TRAFFIC' | 'ACCOUNT_CAP', closed: number) => void;

/**
 * The live connections drawing on one budget: a user's balance (shared by all the user's accounts) or
 * one account's cap. `lease`: bytes they may carry, all together, before the budget is checked again.
 */
interface Pool {
  kind: 'balance' | 'cap';
  /** The user's id (balance) or the account's (cap). */
  id: number;
  lives: IndexedSet<Live>;
  lease: number;
  /** Bytes its connections were charged since the last harvest: an upper estimate of what is unrecorded. */
  charged: number;
  /** Its connections wait for the answer to an ask for a shared lease (they hold still until it comes). */
  holding: boolean;
}

/**
 * What a new connection's heads (CONNECT, 200 line, SOCKS5 handshake) or a plain request's heads are
 * counted as against the lease; their real size is in the sockets' counters, which the exact check reads.
 */
export const HEADS_ESTIMATE = 1024;


/** What `admit` found for a budget a new connection opens: what it may carry, or that it waits for its share. */
interface Opening {
  id: number;
  left: number;
  wait: boolean;
}

interface Live {
  socket: Socket;
  key: MeterKey;
  /** Counter values already recorded. */
  read: number;
  sent: number;
  account: Pool;
  /** Null when its bytes draw no balance (`MeterKey.noBalance`). */
  user: Pool | null;
  /**
   * Per chunk carried (both directions): two counters and a comparison per pool. False when the
   * connection must hold still (plain HTTP's answer then waits for `onCarryOn`).
   */
  charge: (chunk: { length: number }) => boolean;
  /** Cut or closed: chunks still on their way count for nothing. */
  gone: boolean;
  /** A tunnel's upstream socket: held still with the client's while its pools hold. */
  peer: Socket | null;
  /** Holding pools it belongs to (0–2). */
  holds: number;
  /** Held by corking its socket (plain HTTP, or a tunnel not spliced yet). */
  corked: boolean;
  /** Called when it may carry on (plain HTTP answers that were told to wait). */
  waiters: (() => void)[] | null;
}

/**
 * Bytes a client socket has handed to the kernel: `bytesWritten` also counts what still waits in the
 * socket's buffer, which a cut-off would never deliver.
 */
function sentBytes(socket: Socket): number {
  return (socket.bytesWritten ?? 0) - socket.writableLength;
}

/**
 * The client connections that carry an account's traffic. Metering reads each socket's own counters
 * (`bytesRead` = up, bytes sent = down) at every harvest and at close, so a long tunnel is billed
 * while it lives and nothing is done per chunk but the budget's counter. Cut-off destroys an
 * account's sockets. The listener that owns a socket calls `release` when it closes (one 'close'
 * listener per socket, not two).
 *
 * Byte budgets (docs/gateway.md#byte-budgets): every connection draws on its user's balance and its
 * account's cap. Each pool holds a lease (at most `leaseBytes`, never more than what is left) that
 * every chunk its connections carry counts down; when it is spent, what is left is computed again
 * exactly, and a pool with nothing left has all its connections cut at once.
 */
export class LiveConnections {
  // No Map or Set keyed by sockets or their records: see indexed-set.ts.
  private readonly bySocket = new WeakMap<Socket, Live>();
  private readonly all = new IndexedSet<Live>();
  /** Accounts and users come and go far less often than connections: Maps are fine here. */
  private readonly byAccount = new Map<number, Pool>();
  private readonly byUser = new Map<number, Pool>();
  /** What `admit` just found left for the pools a connection opens (so `index` need not ask again), and for whom. */
  private capAtJoin: Opening = { id: -1, left: 0, wait: false };
  private balanceAtJoin: Opening = { id: -1, left: 0, wait: false };

  constructor(
    private readonly record: RecordBytes,
    private readonly budget: ByteBudget = UNLIMITED,
    private readonly onCut: OnCut = () => undefined,
  ) {}

  get size(): number {
    return this.all.size;
  }

  /**
   * Whether `socket` may carry a request of `accountId`. A fresh socket may; one already bound to the
   * account may; one bound to another account only at a clean request boundary (`boundary` not null).
   */
  mayClaim(socket: Socket, accountId: number, boundary: number | null): boolean {
    const live = this.bySocket.get(socket);
    return !live || live.key.accountId === accountId || boundary !== null;
  }

  /**
   * Binds the socket's bytes to `key` from now on. On a fresh socket every byte it carried so far is
   * the key's (the request that opened it). On a kept-alive socket changing key, the old key gets the
   * bytes read up to `boundary` (the end of the last complete request) and everything sent so far.
   * Returns why not, changing nothing, when another account asks without a boundary, or when the
   * account's budget is spent or it holds its limit of connections.
   */
  claim(socket: Socket, key: MeterKey, boundary: number | null): ClaimRefusal | null {
    const live = this.bySocket.get(socket);
    if (!live) {
      const refusal = this.admit(key);
      if (refusal) return refusal;
      const fresh: Live = { socket, key, read: 0, sent: 0, account: null!, user: null!, charge: null!, gone: false, peer: null, holds: 0, corked: false, waiters: null };
      fresh.charge = (chunk) => this.carry(fresh, chunk.length);
      this.bySocket.set(socket, fresh);
      this.all.add(fresh);
      this.index(fresh);
      return null;
    }
    const old = live.key;
    if (old.accountId === key.accountId && old.country === key.country && old.source === key.source) return null;
    if (boundary === null) return old.accountId === key.accountId ? null : 'ACCOUNT_SWITCH'; // same account: keep the old country until a boundary
    if (old.accountId !== key.accountId) {
      const refusal = this.admit(key);
      if (refusal) return refusal;
    }
    const read = Math.max(live.read, boundary);
    const sent = sentBytes(socket);
    this.emit(old, read - live.read, sent - live.sent);
    live.read = read;
    live.sent = Math.max(live.sent, sent);
    if (old.accountId !== key.accountId) {
      this.unindex(live);
      live.key = key;
      this.index(live);
    } else {
      live.key = key;
    }
    return null;
  }

  /** The per-chunk charge of a claimed socket: `splice`'s 'data' listener, plain HTTP's bodies and heads. */
  chargeOf(socket: Socket): Live['charge'] | null {
    return this.bySocket.get(socket)?.charge ?? null;
  }

  /** The tunnel of a claimed socket is spliced: it holds still, both ways, while its budget waits. */
  tunnelled(socket: Socket, upstream: Socket): void {
    const live = this.bySocket.get(socket);
    if (!live) return;
    live.peer = upstream;
    if (live.holds === 0) return;
    if (live.corked) {
      live.corked = false;
      socket.uncork();
    }
    holdTunnel(socket, upstream);
  }

  /** Calls `then` once the socket may carry again (a plain HTTP answer whose write was told to wait). */
  onCarryOn(socket: Socket, then: () => void): void {
    const live = this.bySocket.get(socket);
    if (!live || live.holds === 0) return then();
    (live.waiters ??= []).push(then);
  }

  /** Records every live socket's bytes since the last harvest. */
  harvest(): void {
    this.all.forEach((live) => this.take(live));
    for (const pool of this.byAccount.values()) pool.charged = 0;
    for (const pool of this.byUser.values()) pool.charged = 0;
  }

  accounts(): number[] {
    return [...this.byAccount.keys()];
  }

  /** Checks every budget now (after the store's figures changed); cuts those spent. */
  checkBudgets(): void {
    for (const pool of [...this.byAccount.values(), ...this.byUser.values()]) {
      const first = pool.lives.toArray()[0];
      if (first) this.renew(pool, first);
    }
  }

  /** The answer to an ask for the budget's shared lease came (reservations.ts): checks it now. */
  checkBudget(kind: 'balance' | 'cap', id: number): void {
    const pool = (kind === 'cap' ? this.byAccount : this.byUser).get(id);
    const first = pool?.lives.toArray()[0];
    if (pool && first) this.renew(pool, first);
  }

  /** Whether connections here draw on the budget (reservations of idle budgets are handed back). */
  inUse(kind: 'balance' | 'cap', id: number): boolean {
    return (kind === 'cap' ? this.byAccount : this.byUser).has(id);
  }

  /** Destroys every connection of the account; returns how many. Their bytes are recorded first. */
  closeAccount(accountId: number): number {
    const pool = this.byAccount.get(accountId);
    return pool ? this.cutAll(pool) : 0;
  }

  /**
   * Destroys the connections admitted without credentials (`MeterKey.source`) that `listed` no longer
   * admits — their address was removed from the allowlist, or its account now requires the password.
   * Returns how many. A walk over the live connections: it runs after a refresh, not per connection.
   */
  closeUnlisted(listed: (key: MeterKey) => boolean): number {
    const gone: Live[] = [];
    this.all.forEach((live) => {
      if (live.key.source !== undefined && !listed(live.key)) gone.push(live);
    });
    for (const live of gone) {
      this.take(live);
      this.forget(live);
      live.socket.destroy();
    }
    return gone.length;
  }

  /** Records and forgets every connection (shutdown: the sockets are being destroyed). */
  drain(): void {
    this.harvest();
    this.all.forEach((live) => this.bySocket.delete(live.socket));
    this.all.clear();
    this.byAccount.clear();
    this.byUser.clear();
  }

  /** The socket closed: records its last bytes and forgets it. The listeners call this on 'close'. */
  release(socket: Socket): void {
    const live = this.bySocket.get(socket);
    if (!live) return;
    this.take(live);
    this.forget(live);
  }

  private carry(live: Live, bytes: number): boolean {
    const { account, user } = live;
    account.charged += bytes;
    if ((account.lease -= bytes) <= 0 && !live.gone) this.renew(account, live);
    if (!user) return live.holds === 0;
    user.charged += bytes;
    // The first renew may have cut this connection (and its pools); then there is nothing left to check.
    if ((user.lease -= bytes) <= 0 && !live.gone) this.renew(user, live);
    return live.holds === 0;
  }

  /**
   * What the pool may carry now: the budget's figure minus what its sockets carried unrecorded, and
   * the same of this process's share when budgets are shared. Far from the end an estimate does (the
   * bytes charged since the last harvest, with room for the heads of every connection): the exact walk
   * over the pool's sockets is for the last leases, so a user with thousands of connections does not
   * pay for it once per lease.
   */
  private left(pool: Pool, live: Live): { left: number; share: number } {
    const { accountId, userId } = live.key;
    const cap = pool.kind === 'cap';
    const left = cap ? this.budget.capLeft(accountId) : this.budget.balanceLeft(accountId, userId);
    const share = cap ? this.budget.capShare(accountId) : this.budget.balanceShare(userId);
    if (left === Infinity || left <= 0) return { left, share };
    const estimate = pool.charged + pool.lives.size * HEADS_ESTIMATE;
    if (Math.min(left, share) - estimate > 2 * this.budget.leaseBytes) return { left: left - estimate, share: share - estimate };
    // What reached the kernel is what a cut leaves delivered (and billed); a share also counts what
    // waits in the sockets' buffers, which a connection that holds still goes on delivering.
    let sent = 0;
    let buffered = 0;
    pool.lives.forEach((l) => {
      sent += Math.max(0, l.socket.bytesRead - l.read) + Math.max(0, sentBytes(l.socket) - l.sent);
      buffered += l.socket.writableLength;
    });
    return { left: left - sent, share: share - sent - buffered };
  }

  /**
   * The pool's lease is spent: a new one from what is left, or the cut of all its connections. With
   * shared budgets the next share is asked for while a whole lease of it is still in hand; a pool that
   * outran the answer holds still until it comes (`checkBudget`).
   */
  private renew(pool: Pool, live: Live): void {
    const { left, share } = this.left(pool, live);
    const may = Math.min(left, share);
    if (may > 0) {
      pool.lease = Math.min(this.budget.leaseBytes, may);
      if (share < this.budget.askBelow) this.budget.ask(pool.kind, pool.id);
      if (pool.holding) this.carryOn(pool);
      return;
    }
    // Short of this process's share only (what waits in buffers counts as carried): ask for more and
    // hold still for the answer — unless the store just said nothing is free.
    if (left > 0) this.budget.ask(pool.kind, pool.id);
    if (left > 0 && this.budget.asking(pool.kind, pool.id)) {
      pool.lease = 0;
      if (!pool.holding) this.holdStill(pool);
      return;
    }
    this.onCut(live.key.accountId, pool.kind === 'cap' ? 'ACCOUNT_CAP' : 'NO_TRAFFIC', this.cutAll(pool));
  }

  /**
   * Tunnels stop reading both ways (marked held, so a drain cannot restart them); a plain HTTP answer's
   * next write is told to wait. What is already on its way still arrives: a socket read per connection.
   */
  private holdStill(pool: Pool): void {
    pool.holding = true;
    pool.lives.forEach((l) => this.hold(l));
  }

  private carryOn(pool: Pool): void {
    pool.holding = false;
    pool.lives.forEach((l) => this.unhold(l));
  }

  private hold(live: Live): void {
    if (live.holds++ > 0) return;
    if (live.peer) return holdTunnel(live.socket, live.peer);
    // Plain HTTP: what is written meanwhile stays in the socket's buffer, so it never drains.
    live.corked = true;
    live.socket.cork();
  }

  private unhold(live: Live): void {
    if (--live.holds > 0 || live.gone) return;
    if (live.corked) {
      live.corked = false;
      live.socket.uncork();
    } else if (live.peer) {
      releaseTunnel(live.socket, live.peer);
    }
    const waiters = live.waiters;
    live.waiters = null;
    waiters?.forEach((w) => w());
  }

  /** Whether a new connection of `key` may start: its budgets are not spent, its account under its limit. */
  private admit(key: MeterKey): ClaimRefusal | null {
    const account = this.byAccount.get(key.accountId);
    this.capAtJoin.id = this.balanceAtJoin.id = -1;
    // A pool with connections has a lease > 0 (else they were cut): only a new pool needs the exact figure.
    if (!account && !this.opening('cap', key, this.capAtJoin)) return 'ACCOUNT_CAP';
    if (!key.noBalance && !this.byUser.has(key.userId) && !this.opening('balance', key, this.balanceAtJoin)) return 'NO_TRAFFIC';
    // A limit is at least 1: only an account with connections can be at it.
    const max = account ? this.budget.maxConnections(key.accountId) : null;
    if (max !== null && account!.lives.size >= max) return 'TOO_MANY_CONNECTIONS';
    return null;
  }

  /**
   * What a budget without connections here may carry (into `at`): its figure, and this process's share
   * when shared. Past its share the store is asked again (at most once a second after a refusal); while
   * that answer is on its way the connection is let in to hold still (`wait`), else it is refused.
   * Returns whether it may start.
   */
  private opening(kind: 'balance' | 'cap', key: MeterKey, at: Opening): boolean {
    const cap = kind === 'cap';
    const id = cap ? key.accountId : key.userId;
    const left = cap ? this.budget.capLeft(key.accountId) : this.budget.balanceLeft(key.accountId, key.userId);
    const share = left <= 0 ? left : cap ? this.budget.capShare(id) : this.budget.balanceShare(id);
    if (left > 0 && share < this.budget.askBelow) this.budget.ask(kind, id);
    at.id = id;
    at.left = Math.min(left, share);
    at.wait = at.left <= 0 && left > 0 && this.budget.asking(kind, id);
    return at.left > 0 || at.wait;
  }

  /** Records each connection's bytes as they are now, forgets it and destroys its socket. */
  private cutAll(pool: Pool): number {
    const lives = pool.lives.toArray();
    for (const live of lives) {
      // Recorded before the destroy, while `writableLength` still says what never reached the kernel.
      this.take(live);
      this.forget(live);
      live.socket.destroy();
    }
    return lives.length;
  }

  private forget(live: Live): void {
    live.gone = true;
    this.bySocket.delete(live.socket);
    this.all.delete(live);
    this.unindex(live);
  }

  private take(live: Live): void {
    const read = live.socket.bytesRead;
    const sent = sentBytes(live.socket);
    const up = read - live.read;
    const down = sent - live.sent;
    if (up <= 0 && down <= 0) return;
    this.emit(live.key, up, down);
    live.read = Math.max(live.read, read);
    live.sent = Math.max(live.sent, sent);
  }

  private emit(key: MeterKey, up: number, down: number): void {
    const u = Math.max(0, up);
    const d = Math.max(0, down);
    if (u > 0 || d > 0) this.record(key, u, d);
  }

  private index(live: Live): void {
    // Right after `admit`, which read the figures of the pools that did not exist then (a kept-alive
    // socket changing account may have emptied, and so dropped, a pool `admit` saw: that one is read here).
    const { accountId, userId } = live.key;
    live.account = this.join('cap', accountId, live, this.capAtJoin);
    live.user = live.key.noBalance ? null : this.join('balance', userId, live, this.balanceAtJoin);
  }

  private join(kind: 'balance' | 'cap', id: number, live: Live, known: Opening): Pool {
    const pools = kind === 'cap' ? this.byAccount : this.byUser;
    let pool = pools.get(id);
    if (!pool) {
      if (known.id !== id) this.opening(kind, live.key, known);
      const lease = known.wait ? 0 : Math.min(this.budget.leaseBytes, known.left);
      pools.set(id, (pool = { kind, id, lives: new IndexedSet(), lease, charged: 0, holding: known.wait }));
    }
    if (pool.holding) this.hold(live);
    // The heads this connection carried are not chunks anyone charges: count them now (the next chunk
    // checks the budget if that spent the lease).
    pool.lease -= HEADS_ESTIMATE;
    pool.lives.add(live);
    return pool;
  }

  private unindex(live: Live): void {
    this.leave(this.byAccount, live.key.accountId, live);
    if (live.user) this.leave(this.byUser, live.key.userId, live);
  }

  private leave(pools: Map<number, Pool>, id: number, live: Live): void {
    const pool = pools.get(id);
    if (!pool) return;
    pool.lives.delete(live);
    if (pool.holding) this.unhold(live);
    if (pool.lives.size === 0) pools.delete(id);
  }
}

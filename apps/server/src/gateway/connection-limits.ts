import type { Socket } from 'node:net';
import { Deadline } from './deadlines';
import type { GatewayLog } from './gateway-log';
import { type KnownSources, networkOf } from './known-sources';

/*
 * What clients may hold on a listener before they have authenticated
 * (docs/gateway.md#connection-limits-and-failed-logins): a complete request head or SOCKS handshake
 * within `handshakeMs`, at most `maxPendingPerIp` unauthenticated connections per source address and
 * `maxPendingPerNet` per /24 or /64, and at most `maxPending` of them in all — their own share of the
 * listener's `maxConnections`, so that strangers who never log in cannot take the room paying customers'
 * tunnels need.
 *
 * When that share (or the whole budget) is full, a new connection is not refused: the oldest
 * unauthenticated one makes room for it. A client that sends its head at once — every real proxy client —
 * is through long before the connections opened after it push it out, while a held-open partial head is
 * the first to go. Addresses that logged in lately (known-sources.ts) skip the per-network cap and take
 * no one's place in the share. Only when every open connection has authenticated is a new one refused
 * at once (closed without a word: a descriptor for a moment), which keeps the process's last
 * descriptors for the API and the other port.
 */

export interface ConnectionLimitsOptions {
  /** `http` or `socks`, in logs. */
  listener: string;
  handshakeMs: number;
  maxPendingPerIp: number;
  maxPendingPerNet: number;
  maxPending: number;
  maxConnections: number;
  /** Addresses that logged in lately, shared by both listeners. */
  known: KnownSources;
  log: GatewayLog;
}

/** What the gateway's options set; each listener adds its name and the log. */
export type ListenerLimits = Omit<ConnectionLimitsOptions, 'listener' | 'log'>;

export type LimitRefusal = 'budget' | 'pendingPerIp' | 'pendingPerNet';

/** Running short of descriptors is logged at most this often, with how many connections it cost meanwhile. */
const SHORTAGE_LOG_MS = 10_000;

/** Counts events and says when to log them: at most once per `everyMs`, with the count since the last line. */
class Throttle {
  private count = 0;
  private last = -Infinity;

  constructor(private readonly everyMs: number) {}

  /** The count to log now, or null to stay quiet. */
  hit(now = Date.now()): number | null {
    this.count++;
    if (now - this.last < this.everyMs) return null;
    this.last = now;
    const n = this.count;
    this.count = 0;
    return n;
  }
}

export class ConnectionLimits {
  /** Connections refused at accept, by reason (tests and the figures read these). */
  readonly refused: Record<LimitRefusal, number> = { budget: 0, pendingPerIp: 0, pendingPerNet: 0 };
  /** Unauthenticated connections closed to make room for a newer one. */
  evicted = 0;
  /** Connections closed because their head or handshake was not complete in time. */
  timedOut = 0;
  /**
   * Unauthenticated connections per source address. Keyed by address, not by socket: an entry lives
   * while its address has a connection pending, and one client's connections all hit the same entry.
   */
  private readonly pendingByIp = new Map<string, number>();
  /** The same per /24 or /64 (known-sources.ts networkOf). */
  private readonly pendingByNet = new Map<string, number>();
  /** Every unauthenticated connection, oldest first (a Set keeps insertion order): the first makes room. */
  private readonly queue = new Set<Handshake>();
  /** Each open connection's handshake, deleted at close (a deleted WeakMap entry leaves no garbage: indexed-set.ts). */
  private readonly handshakes = new WeakMap<Socket, Handshake>();
  private readonly acceptErrors = new Throttle(SHORTAGE_LOG_MS);
  private readonly overBudget = new Throttle(SHORTAGE_LOG_MS);
  private readonly overPending = new Throttle(SHORTAGE_LOG_MS);
  private readonly overNet = new Throttle(SHORTAGE_LOG_MS);
  private readonly crowded = new Throttle(SHORTAGE_LOG_MS);

  constructor(readonly opts: ConnectionLimitsOptions) {}

  /**
   * A new connection, `open` being the listener's connections before it: its handshake deadline is
   * armed and it counts as pending for its address and network; or it is refused and destroyed (null).
   */
  admit(socket: Socket, open: number): Handshake | null {
    // getpeername() once per connection: the per-address counts need it, nothing cheaper knows the peer.
    const ip = socket.remoteAddress ?? '';
    const pending = this.pendingByIp.get(ip) ?? 0;
    if (pending >= this.opts.maxPendingPerIp) {
      this.warn(this.overPending, { ip, maxPendingPerIp: this.opts.maxPendingPerIp }, 'gateway: too many unauthenticated connections from one address, refusing more (GATEWAY_MAX_PENDING_PER_IP)');
      return this.refuse(socket, 'pendingPerIp');
    }
    const net = networkOf(ip);
    const known = this.opts.known.has(ip);
    const onNet = this.pendingByNet.get(net) ?? 0;
    if (!known && onNet >= this.opts.maxPendingPerNet) {
      this.warn(this.overNet, { network: net, maxPendingPerNet: this.opts.maxPendingPerNet }, 'gateway: too many unauthenticated connections from one network, refusing more (GATEWAY_MAX_PENDING_PER_NET)');
      return this.refuse(socket, 'pendingPerNet');
    }
    const full = open >= this.opts.maxConnections;
    if (full || (!known && this.queue.size >= this.opts.maxPending)) {
      const oldest = this.queue.values().next().value;
      if (!oldest) return this.refuse(socket, 'budget');
      oldest.evict();
      this.warn(this.crowded, { maxPending: this.opts.maxPending, maxConnections: this.opts.maxConnections }, 'gateway: unauthenticated connections fill their share, the oldest make room for new ones (GATEWAY_MAX_PENDING)');
    }
    // Read again: the connection that made room may have been this address's or network's own.
    increment(this.pendingByIp, ip);
    increment(this.pendingByNet, net);
    const h = new Handshake(this, socket, ip, net);
    this.queue.add(h);
    h.arm(Date.now() + this.opts.handshakeMs);
    this.handshakes.set(socket, h);
    return h;
  }

  of(socket: Socket): Handshake | undefined {
    return this.handshakes.get(socket);
  }

  /** The listener's shared 'close' listener calls this. */
  closed(socket: Socket): void {
    const h = this.handshakes.get(socket);
    if (!h) return;
    this.handshakes.delete(socket);
    h.cancel();
    h.closed();
  }

  pendingFrom(ip: string): number {
    return this.pendingByIp.get(ip) ?? 0;
  }

  /** Unauthenticated connections open now (tests, figures). */
  get pendingCount(): number {
    return this.queue.size;
  }

  /** @internal Handshake's: one pending connection authenticated, closed or evicted. */
  release(h: Handshake): void {
    this.queue.delete(h);
    decrement(this.pendingByIp, h.ip);
    decrement(this.pendingByNet, h.net);
  }

  /** Whether `ip` logged in lately (known-sources.ts): its connection without credentials is no guess. */
  knows(ip: string): boolean {
    return this.opts.known.has(ip);
  }

  /** @internal Handshake's: right credentials from `ip`. */
  loggedIn(ip: string): void {
    this.opts.known.loggedIn(ip);
  }

  /** @internal Handshake's. */
  countEviction(): void {
    this.evicted++;
  }

  /**
   * The listening server's 'error' event. An accept that fails (EMFILE, ENFILE: out of descriptors)
   * arrives here when libuv's own fallback (accept with a spare descriptor and close at once) could not
   * drop the connection either; it must not end the process, and is logged at most every 10 s with a count.
   */
  acceptError(err: NodeJS.ErrnoException): void {
    const n = this.acceptErrors.hit();
    if (n === null) return;
    this.opts.log.error(
      { listener: this.opts.listener, code: err.code, failedAccepts: n },
      'gateway: accepting connections fails (out of file descriptors?); raise the limit (docs/deployment.md)',
    );
  }

  private refuse(socket: Socket, why: LimitRefusal): null {
    this.refused[why]++;
    socket.destroy();
    if (why === 'budget') {
      this.warn(this.overBudget, { maxConnections: this.opts.maxConnections }, 'gateway: listener at its connection budget, refusing new connections; raise the descriptor limit or GATEWAY_MAX_CONNECTIONS (docs/deployment.md)');
    }
    return null;
  }

  /** A shortage logged at most every 10 s, with how many it cost since the last line. */
  private warn(throttle: Throttle, fields: Record<string, unknown>, message: string): void {
    const n = throttle.hit();
    if (n !== null) this.opts.log.warn({ listener: this.opts.listener, ...fields, count: n }, message);
  }
}

/**
 * One connection's wait for its request head or SOCKS handshake, on the shared deadline timer, and its
 * place in its address's pending count until it authenticates or closes.
 */
export class Handshake extends Deadline {
  private pending = true;

  constructor(
    private readonly limits: ConnectionLimits,
    private readonly socket: Socket,
    readonly ip: string,
    readonly net: string,
  ) {
    super(noop);
  }

  /** The head or handshake is complete: no more deadline until the next head (`awaitHead`). */
  headComplete(): void {
    this.cancel();
  }

  /** A kept-alive connection waits for its next request head: the same time again. */
  awaitHead(): void {
    if (!this.socket.destroyed) this.arm(Date.now() + this.limits.opts.handshakeMs);
  }

  /** Credentials accepted: no longer pending, and its address is known for a while (known-sources.ts). */
  authenticated(): void {
    this.limits.loggedIn(this.ip);
    this.settle();
  }

  /** Closed: no longer pending. */
  closed(): void {
    this.settle();
  }

  /** The oldest pending connection, making room for a newer one. */
  evict(): void {
    this.settle();
    this.limits.countEviction();
    this.socket.destroy();
  }

  private settle(): void {
    if (!this.pending) return;
    this.pending = false;
    this.limits.release(this);
  }

  protected override fire(): void {
    this.limits.timedOut++;
    this.socket.destroy();
  }
}

function noop(): void {}

function increment(counts: Map<string, number>, key: string): void {
  counts.set(key, (counts.get(key) ?? 0) + 1);
}

function decrement(counts: Map<string, number>, key: string): void {
  const n = (counts.get(key) ?? 1) - 1;
  if (n <= 0) counts.delete(key);
  else counts.set(key, n);
}

import type { Socket } from 'node:net';
import { Deadline } from './deadlines';
import type { GatewayLog } from './gateway-log';

/*
 * What one client may hold on a listener before it has authenticated
 * (docs/gateway.md#connection-limits-and-failed-logins): a complete request head or SOCKS handshake
 * within `handshakeMs`, at most
 * `maxPendingPerIp` unauthenticated connections per source IP, and room left for the other ports: a
 * listener with `maxConnections` open refuses new ones at once (closed without a word, a descriptor
 * for a moment) instead of taking the process's last descriptors from the API and the other port.
 */

export interface ConnectionLimitsOptions {
  /** `http` or `socks`, in logs. */
  listener: string;
  handshakeMs: number;
  maxPendingPerIp: number;
  maxConnections: number;
  log: GatewayLog;
}

export type LimitRefusal = 'budget' | 'pendingPerIp';

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
  readonly refused: Record<LimitRefusal, number> = { budget: 0, pendingPerIp: 0 };
  /** Connections closed because their head or handshake was not complete in time. */
  timedOut = 0;
  /**
   * Unauthenticated connections per source address. Keyed by address, not by socket: an entry lives
   * while its address has a connection pending, and one client's connections all hit the same entry.
   */
  private readonly pendingByIp = new Map<string, number>();
  /** Each open connection's handshake, deleted at close (a deleted WeakMap entry leaves no garbage: indexed-set.ts). */
  private readonly handshakes = new WeakMap<Socket, Handshake>();
  private readonly acceptErrors = new Throttle(SHORTAGE_LOG_MS);
  private readonly overBudget = new Throttle(SHORTAGE_LOG_MS);
  private readonly overPending = new Throttle(SHORTAGE_LOG_MS);

  constructor(readonly opts: ConnectionLimitsOptions) {}

  /**
   * A new connection, `open` being the listener's connections before it: its handshake deadline is
   * armed and it counts as pending for its address; or it is refused and destroyed (null).
   */
  admit(socket: Socket, open: number): Handshake | null {
    if (open >= this.opts.maxConnections) return this.refuse(socket, 'budget');
    // getpeername() once per connection: the per-IP count needs it, nothing cheaper knows the peer.
    const ip = socket.remoteAddress ?? '';
    const pending = this.pendingByIp.get(ip) ?? 0;
    if (pending >= this.opts.maxPendingPerIp) {
      const n = this.overPending.hit();
      if (n !== null) {
        this.opts.log.warn(
          { listener: this.opts.listener, ip, maxPendingPerIp: this.opts.maxPendingPerIp, refused: n },
          'gateway: too many unauthenticated connections from one address, refusing more (GATEWAY_MAX_PENDING_PER_IP)',
        );
      }
      return this.refuse(socket, 'pendingPerIp');
    }
    this.pendingByIp.set(ip, pending + 1);
    const h = new Handshake(this, socket, ip);
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
    h.authenticated();
  }

  pendingFrom(ip: string): number {
    return this.pendingByIp.get(ip) ?? 0;
  }

  /** @internal Handshake's: one pending connection of `ip` authenticated or closed. */
  release(ip: string): void {
    const n = (this.pendingByIp.get(ip) ?? 1) - 1;
    if (n <= 0) this.pendingByIp.delete(ip);
    else this.pendingByIp.set(ip, n);
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
      const n = this.overBudget.hit();
      if (n !== null) {
        this.opts.log.warn(
          { listener: this.opts.listener, maxConnections: this.opts.maxConnections, refused: n },
          'gateway: listener at its connection budget, refusing new connections; raise the descriptor limit or GATEWAY_MAX_CONNECTIONS (docs/deployment.md)',
        );
      }
    }
    return null;
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

  /** Credentials accepted (or the connection closed): no longer pending for its address. */
  authenticated(): void {
    if (!this.pending) return;
    this.pending = false;
    this.limits.release(this.ip);
  }

  protected override fire(): void {
    this.limits.timedOut++;
    this.socket.destroy();
  }
}

function noop(): void {}

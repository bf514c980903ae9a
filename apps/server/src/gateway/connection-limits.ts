import type { Socket } from 'node:net';
import { Deadline } from './deadlines';
import type { GatewayLog } from './gateway-log';

/*
 * What one client may hold on a listener before it has authenticated (DESIGN §6, docs/gateway.md
 * "Connection limits"): a complete request head or SOCKS handshake within `handshakeMs`, at most
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

/** Running short of descriptors is logged at most this often, with how many accepts failed meanwhile. */
const ACCEPT_ERROR_LOG_MS = 10_000;

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
  private acceptErrors = 0;
  private lastAcceptErrorLog = 0;

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
    if (pending >= this.opts.maxPendingPerIp) return this.refuse(socket, 'pendingPerIp');
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
   * arrives here and must not end the process; it is logged at most every 10 s with a count.
   */
  acceptError(err: NodeJS.ErrnoException): void {
    this.acceptErrors++;
    const now = Date.now();
    if (now - this.lastAcceptErrorLog < ACCEPT_ERROR_LOG_MS) return;
    this.lastAcceptErrorLog = now;
    this.opts.log.error(
      { listener: this.opts.listener, code: err.code, failedAccepts: this.acceptErrors },
      'gateway: accepting connections fails (out of file descriptors?); raise the limit (docs/deployment.md)',
    );
    this.acceptErrors = 0;
  }

  private refuse(socket: Socket, why: LimitRefusal): null {
    this.refused[why]++;
    socket.destroy();
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

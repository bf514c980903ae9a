import http from 'node:http';
import net from 'node:net';
import type { Duplex } from 'node:stream';
import { expireAt } from './deadlines';
import type { DestinationGuard } from './destination-guard';
import { dialExit } from './exit-dialer';
import type { Exit } from './ports';
import type { DialFailure } from './statuses';

/**
 * An `http.Agent` for plain requests the gateway forwards (plain-forward.ts): a new connection that is
 * not up within `connectTimeoutMs` fails with ETIMEDOUT, answered 504 UPSTREAM_TIMEOUT — the same
 * bound a CONNECT's dial has.
 */
export class ExitAgent extends http.Agent {
  constructor(
    private readonly connectTimeoutMs: number,
    opts: http.AgentOptions,
  ) {
    super(opts);
  }

  override createConnection(options: http.ClientRequestArgs): Duplex {
    const socket = net.createConnection(options as net.NetConnectOpts);
    const deadline = expireAt(Date.now() + this.connectTimeoutMs, () =>
      socket.destroy(Object.assign(new Error(`no connection within ${this.connectTimeoutMs} ms`), { code: 'ETIMEDOUT' })),
    );
    const settle = () => deadline.cancel();
    socket.once('connect', settle);
    socket.once('close', settle);
    return socket;
  }
}

/**
 * One plain request through a SOCKS upstream: its connection is dialled by the gateway's own exit
 * dialer (the CONNECT and SOCKS5 listeners' path), so it has the same connect timeout and fails with the
 * same reasons; `onFailure` hears the exact reason, which an errno code could not carry (AUTH, REJECTED).
 * The errno of the error it gives the request says less than `onFailure` heard, which the answer uses.
 */
export class DialAgent extends http.Agent {
  constructor(
    private readonly exit: Exit,
    private readonly connectTimeoutMs: number,
    private readonly guard: DestinationGuard,
    private readonly onFailure: (failure: DialFailure) => void,
  ) {
    super({ keepAlive: false });
  }

  override createConnection(options: http.ClientRequestArgs, callback?: (err: Error | null, stream: Duplex) => void): undefined {
    const host = String(options.hostname ?? options.host ?? 'localhost');
    dialExit(this.exit, host, Number(options.port) || 80, this.connectTimeoutMs, this.guard, (failure, socket) => {
      if (failure || !socket) {
        const reason = failure ?? 'UPSTREAM_ERROR';
        this.onFailure(reason);
        return callback?.(new Error(reason), null as never);
      }
      socket.resume();
      callback?.(null, socket);
    });
    return undefined;
  }
}

/** Agents towards upstream proxies kept at most; beyond it idle ones are closed. */
const MAX_POOLED = 256;

/**
 * Keep-alive agents for plain requests, one per upstream URL (its credentials included: a kept
 * connection must not carry another account's requests to a provider that binds the exit to it).
 * Bounded without ever cutting a request in flight: past the bound only an agent with no request on
 * it is closed, and when every one is busy the request goes without keep-alive. A URL that names a
 * session (a provider template's) is not pooled: rotating requests would never reuse it.
 */
export class UpstreamAgents {
  private readonly pooled = new Map<string, ExitAgent>();
  /** Direct egress: connections to origins, kept alive. */
  readonly direct: ExitAgent;
  /** One connection per request, closed after it. */
  private readonly unpooled: ExitAgent;

  constructor(
    private readonly connectTimeoutMs: number,
    private readonly max = MAX_POOLED,
  ) {
    this.direct = new ExitAgent(connectTimeoutMs, { keepAlive: true });
    this.unpooled = new ExitAgent(connectTimeoutMs, { keepAlive: false });
  }

  forUrl(url: string, pool: boolean): http.Agent {
    if (!pool) return this.unpooled;
    let agent = this.pooled.get(url);
    if (agent) {
      // Most recently used last, so the least recently used (most likely idle) are looked at first.
      this.pooled.delete(url);
      this.pooled.set(url, agent);
      return agent;
    }
    if (this.pooled.size >= this.max && !this.evictIdle()) return this.unpooled;
    agent = new ExitAgent(this.connectTimeoutMs, { keepAlive: true });
    this.pooled.set(url, agent);
    return agent;
  }

  /** Agents currently pooled (tests). */
  get size(): number {
    return this.pooled.size;
  }

  destroy(): void {
    this.direct.destroy();
    this.unpooled.destroy();
    for (const agent of this.pooled.values()) agent.destroy();
    this.pooled.clear();
  }

  /** Closes the least recently used agent that carries no request; false when all are busy. */
  private evictIdle(): boolean {
    for (const [url, agent] of this.pooled) {
      if (!isIdle(agent)) continue;
      // Only kept-alive connections are open on an idle agent: destroy() closes just those.
      agent.destroy();
      this.pooled.delete(url);
      return true;
    }
    return false;
  }
}

function isIdle(agent: http.Agent): boolean {
  return Object.keys(agent.sockets).length === 0 && Object.keys(agent.requests).length === 0;
}

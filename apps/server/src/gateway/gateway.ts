import { defaultListenerBudget } from '../lib/descriptor-limit';
import { KnownSources } from './known-sources';
import type { ConnectionLimits } from './connection-limits';
import { DEFAULT_LEASE_BYTES, meteredBudget } from './byte-budget';
import { DestinationGuard } from './destination-guard';
import { enforceStanding } from './enforcement';
import { type GatewayLog, silentLog } from './gateway-log';
import { type GatewayMetrics, noGatewayMetrics } from './gateway-metrics';
import { HttpListener } from './http-listener';
import { LiveConnections } from './live-connections';
import { DEFAULT_LOGIN_FAILURE_POLICY, type LoginFailurePolicy, LoginFailures } from './login-failures';
import { UsageMeter } from './meter';
import type { ExitChooser, GatewayAuthority, LoginFailureSink, ReservationStore, UsageSink } from './ports';
import type { ProviderHealth } from './provider-health';
import { Reservations } from './reservations';
import { SocksListener } from './socks-listener';

export interface GatewayOptions {
  host: string;
  /** HTTP proxy port (CONNECT and plain HTTP); 0 picks a free one (tests). */
  httpPort: number;
  /** SOCKS5 port; 0 picks a free one. */
  socksPort: number;
  authority: GatewayAuthority;
  chooser: ExitChooser;
  /** Providers' passive health, counted at each tunnel's dial (docs/gateway.md#health-and-failover); unset: not kept. */
  health?: ProviderHealth;
  sink: UsageSink;
  /** Names this gateway's batches in the store (`usage_flushes.gateway_id`, at most 64 characters). */
  gatewayId: string;
  /** Metered bytes are flushed this often (docs/gateway.md#metering: at most 5 s); enforcement runs right after. */
  flushMs?: number;
  /** Standing of accounts with live connections is checked this often (besides after each flush). */
  enforceMs?: number;
  /** Dialing an exit (direct, HTTP or SOCKS upstream, including its handshake) gives up after this. */
  connectTimeoutMs?: number;
  /** A plain HTTP request read whole gets the head of its answer within this (default 60 s), else 504. */
  responseTimeoutMs?: number;
  /**
   * Let direct egress reach loopback, private and other non-public addresses (tests and CI, whose origins
   * are on 127.0.0.1). Default false: a customer must not reach the gateway host's own or internal services.
   */
  allowPrivateDestinations?: boolean;
  /**
   * A client must complete its request head (HTTP) or greeting, auth and request (SOCKS5) within this
   * (default 10 s, `GATEWAY_HANDSHAKE_MS`); on a kept-alive HTTP connection, each next head too.
   */
  handshakeTimeoutMs?: number;
  /** Unauthenticated connections per source IP and listener (default 64, `GATEWAY_MAX_PENDING_PER_IP`). */
  maxPendingPerIp?: number;
  /** Unauthenticated connections per /24 (IPv4) or /64 (IPv6) and listener (default 256, `GATEWAY_MAX_PENDING_PER_NET`). */
  maxPendingPerNet?: number;
  /** Open client connections per listener (default: a fifth of the descriptor limit, `GATEWAY_MAX_CONNECTIONS`). */
  maxConnections?: number;
  /** Unauthenticated connections per listener (default: half of `maxConnections`, `GATEWAY_MAX_PENDING`). */
  maxPending?: number;
  /** When failed logins are slowed and refused (default: login-failures.ts). */
  loginFailurePolicy?: Partial<LoginFailurePolicy>;
  /** Where failed logins per proxy account go, with each usage flush; unset: only logged. */
  loginFailureSink?: LoginFailureSink;
  /** The aggregate line of failed logins per address is written at most this often (default 60 s). */
  loginLogMs?: number;
  /**
   * Byte budgets (docs/gateway.md#byte-budgets): bytes an account's connections carry, all together, between two exact
   * checks of its balance and cap. Default 1 MiB.
   */
  leaseBytes?: number;
  /**
   * Shared byte budgets, for several gateway processes serving the same accounts: each reserves its
   * share of a budget here before carrying it (docs/gateway.md). The sink must take a landed batch's
   * bytes out of this gateway's reservations in the same transaction. Unset: one process, no sharing.
   */
  reservations?: ReservationStore;
  /** A shared budget without live connections here hands back what it holds after this long (default 10 s). */
  reservationIdleMs?: number;
  /** Flush attempts at stop() before the unflushed bytes are reported lost. */
  stopFlushAttempts?: number;
  realm?: string;
  log?: GatewayLog;
  /** Refusals, metered bytes and flushes for the operators' metrics (ops/metrics.ts); default: none. */
  metrics?: GatewayMetrics;
  /** Clock for hour buckets and the first batch number (tests). */
  now?: () => number;
  /** Port endpoints per listener (GATEWAY_PORT_RANGE_HTTP / _SOCKS; docs/gateway.md#port-endpoints); unset: off. */
  portRanges?: { http?: readonly [number, number]; socks5?: readonly [number, number] };
}

export interface Gateway {
  start(): Promise<void>;
  /** Stops listening, closes every connection, flushes what was metered. */
  stop(): Promise<void>;
  /** Bound ports (after start). */
  readonly httpPort: number;
  readonly socksPort: number;
  /** Immediate cut of an account's live connections (e.g. on a pub/sub message); returns how many. */
  closeAccount(accountId: number): number;
  /** Checks now the standing of every account with live connections and cuts those refused (a cut-off event). */
  enforce(): void;
  /** Harvests live connections and flushes now; true when everything is durable. */
  flush(): Promise<boolean>;
  /** Client connections currently carrying an account's traffic. */
  liveConnections(): number;
  /** Each listener's limits (refusals, timeouts) and the failed-login record, for tests and figures. */
  readonly protection: { http: ConnectionLimits; socks: ConnectionLimits; failures: LoginFailures };
}

/** The gateway engine (docs/gateway.md): both listeners, metering and cut-off, against the store's ports. */
export function createGateway(o: GatewayOptions): Gateway {
  const log = o.log ?? silentLog;
  const flushMs = o.flushMs ?? 5000;
  const enforceMs = o.enforceMs ?? 5000;
  const connectTimeoutMs = o.connectTimeoutMs ?? 10_000;
  const leaseBytes = o.leaseBytes ?? DEFAULT_LEASE_BYTES;
  const reservations = o.reservations
    ? new Reservations({
        store: o.reservations,
        gatewayId: o.gatewayId,
        want: leaseBytes,
        idleMs: o.reservationIdleMs ?? 10_000,
        log,
        onAnswer: (s) => live.checkBudget(s.kind === 'user' ? 'balance' : 'cap', s.id),
        now: o.now,
      })
    : undefined;
  const metrics = o.metrics ?? noGatewayMetrics;
  const meter = new UsageMeter({ sink: o.sink, gatewayId: o.gatewayId, now: o.now, log, onLanded: reservations && ((u, a) => reservations.landed(u, a)) });
  const budget = meteredBudget(o.authority, meter, leaseBytes, reservations);
  // Metered bytes are the ones counted: the same figures the store bills, at each harvest and close.
  const record: typeof meter.record = o.metrics
    ? (key, up, down) => {
        meter.record(key, up, down);
        metrics.carried(up, down);
      }
    : meter.record;
  const live: LiveConnections = new LiveConnections(record, budget, (accountId, refusal, closed) =>
    log.info({ accountId, refusal, closed, cause: 'budget' }, 'gateway: account cut off'),
  );
  // Own ports read at each dial: they are bound only at start (0 = a free one).
  const guard: DestinationGuard = new DestinationGuard({ allowPrivate: o.allowPrivateDestinations ?? false, ownPorts: (): number[] => [http.port, socks.port] });
  const maxConnections = o.maxConnections ?? defaultListenerBudget();
  const failures = new LoginFailures({ ...DEFAULT_LOGIN_FAILURE_POLICY, ...o.loginFailurePolicy });
  const common = {
    host: o.host,
    authority: o.authority,
    chooser: o.chooser,
    health: o.health ?? null,
    live,
    connectTimeoutMs,
    guard,
    log,
    failures,
    metrics,
    limits: {
      handshakeMs: o.handshakeTimeoutMs ?? 10_000,
      maxPendingPerIp: o.maxPendingPerIp ?? 64,
      maxPendingPerNet: o.maxPendingPerNet ?? 256,
      maxConnections,
      maxPending: Math.min(o.maxPending ?? Math.ceil(maxConnections / 2), maxConnections),
      // One for both listeners: a customer who logged in over HTTP is known on the SOCKS5 port too.
      known: new KnownSources(),
    },
  };
  const http = new HttpListener({ ...common, port: o.httpPort, realm: o.realm ?? 'resi-gateway', responseTimeoutMs: o.responseTimeoutMs ?? 60_000, portRange: o.portRanges?.http });
  const socks = new SocksListener({ ...common, port: o.socksPort, portRange: o.portRanges?.socks5 });
  const timers: NodeJS.Timeout[] = [];
  let stopped = false;

  const enforce = () => {
    enforceStanding(live, o.authority, log);
    if (!reservations) return;
    reservations.releaseIdle(
      (s) => live.inUse(s.kind === 'user' ? 'balance' : 'cap', s.id),
      (s) => (s.kind === 'user' ? meter.unflushedOfUser(s.id) : meter.unflushedOfAccount(s.id)),
    );
    reservations.keepAlive().catch((err: unknown) => log.warn({ err }, 'gateway: keeping reservations alive failed'));
  };
  /** Failed logins per account reach the store with each flush; what fails is kept for the next one. */
  const reportLoginFailures = async () => {
    const taken = failures.takeAccountFailures();
    if (taken.length === 0 || !o.loginFailureSink) return;
    try {
      await o.loginFailureSink.recordLoginFailures(taken);
    } catch (err) {
      failures.restore(taken);
      log.warn({ err }, 'gateway: failed proxy logins could not be recorded; retried with the next flush');
    }
  };
  /** At stop, after the last flush: this process holds nothing any more (else its rows lapse on their own). */
  const dropReservations = async () => {
    await reservations?.stop().catch((err: unknown) => log.warn({ err }, 'gateway: dropping reservations at stop failed; they lapse on their own'));
  };
  const flushMeter = async (): Promise<boolean> => {
    const started = performance.now();
    const ok = await meter.flush();
    metrics.flushed(ok, (performance.now() - started) / 1000);
    return ok;
  };
  const flush = async (): Promise<boolean> => {
    void reportLoginFailures();
    live.harvest();
    const ok = await flushMeter();
    meter.forgetSeen(o.authority.usageSeen());
    // The store refreshes the authority's cache as part of a flush: check standing at once.
    if (!stopped) enforce();
    return ok;
  };

  return {
    get httpPort() {
      return http.port;
    },
    get socksPort() {
      return socks.port;
    },
    async start() {
      await http.listen();
      try {
        await socks.listen();
      } catch (err) {
        await http.close();
        throw err;
      }
      timers.push(
        setInterval(() => void flush(), flushMs),
        setInterval(enforce, enforceMs),
        setInterval(() => failures.logAggregate(log), o.loginLogMs ?? 60_000),
      );
      for (const t of timers) t.unref();
      log.info({ httpPort: http.port, socksPort: socks.port }, 'gateway listening');
    },
    async stop() {
      stopped = true;
      for (const t of timers) clearInterval(t);
      await Promise.all([http.close(), socks.close()]);
      failures.logAggregate(log);
      await reportLoginFailures();
      // The sockets are destroyed; their counters still read: record them before the 'close' events.
      live.drain();
      const attempts = o.stopFlushAttempts ?? 5;
      for (let i = 0; i < attempts; i++) {
        if (await flushMeter()) return dropReservations();
        await new Promise((r) => setTimeout(r, Math.min(200 * 2 ** i, 2000)));
      }
      log.error({ gatewayId: o.gatewayId, ...meter.unflushed() }, 'gateway: usage could not be flushed at stop; these bytes are lost');
      await dropReservations();
    },
    closeAccount: (accountId) => live.closeAccount(accountId),
    enforce: () => {
      if (!stopped) enforceStanding(live, o.authority, log, 'event');
    },
    flush,
    liveConnections: () => live.size,
    protection: { http: http.limits, socks: socks.limits, failures },
  };
}

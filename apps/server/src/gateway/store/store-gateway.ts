import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema';
import type { Clock } from '../../lib/clock';
import type { CutoffBus, CutoffEvent } from '../../lib/cutoff-bus';
import { SEAL_LABELS, SealedBox } from '../../lib/sealed-box';
import { ProviderRepository } from '../../modules/providers/provider-repository';
import { SupplySettingsRepository } from '../../modules/providers/supply-settings-repository';
import { type Gateway, type GatewayOptions, createGateway } from '../gateway';
import type { GatewayLog } from '../gateway-log';
import type { GatewayMetrics } from '../gateway-metrics';
import type { UsageDelta, UsageSink } from '../ports';
import { type BreakerPolicy, ProviderHealth } from '../provider-health';
import { UpstreamExitChooser } from '../upstream-exit-chooser';
import { AccountCache } from './account-cache';
import { AccountCacheRepository } from './account-cache-repository';
import { chooserSupply } from './chooser-supply';
import { LoginFailureRepository } from './login-failure-repository';
import { GatewayHealthRepository } from './gateway-health-repository';
import { ReservationRepository } from './reservation-repository';
import { UsageRepository } from './usage-repository';

export interface StoreGatewayOptions {
  db: Kysely<Database>;
  clock: Clock;
  appSecret: string;
  host: string;
  httpPort: number;
  socksPort: number;
  /** Direct egress may reach non-public addresses (tests; see GatewayOptions). */
  allowPrivateDestinations?: boolean;
  log: GatewayLog;
  /** NODE_ENV=production: direct egress (a demo setting) is ignored. */
  production?: boolean;
  /**
   * Supply, and what changed in accounts and balances, are re-read this often (besides after every usage
   * flush); accounts and balances are read whole every `fullReloadMs` (default 5 minutes).
   */
  refreshMs?: number;
  fullReloadMs?: number;
  flushMs?: number;
  enforceMs?: number;
  /** Dialing an exit gives up after this (GatewayOptions; tests shorten it). */
  connectTimeoutMs?: number;
  /** Client limits before authentication (GatewayOptions; GATEWAY_HANDSHAKE_MS and the like). */
  handshakeMs?: number;
  maxPendingPerIp?: number;
  maxPendingPerNet?: number;
  maxConnections?: number;
  maxPending?: number;
  /**
   * Cut-off events: this gateway re-reads the named user and cuts at once on each, and announces the
   * accounts its own flushes find spent, so the other gateways cut them at once too.
   */
  cutoffs?: CutoffBus;
  /** Byte budgets' lease (GATEWAY_LEASE_BYTES; default 1 MiB). */
  leaseBytes?: number;
  /** Concurrent connections of an account without its own limit (GATEWAY_ACCOUNT_MAX_CONNECTIONS). */
  defaultMaxConnections?: number | null;
  /**
   * Several gateway processes serve the same accounts: byte budgets are shared through reservations in
   * the store, so together they carry at most the budget plus a lease each (GATEWAY_SHARED_BUDGETS).
   */
  sharedBudgets?: boolean;
  /** A shared budget idle on this gateway hands its reservation back after this long (default 10 s). */
  reservationIdleMs?: number;
  /** The operators' metrics (METRICS_PORT); default: none. */
  metrics?: GatewayMetrics;
  /** Port endpoints (GatewayOptions). */
  portRanges?: GatewayOptions['portRanges'];
  /** Providers' circuit breakers (provider-health.ts; tests shorten them). */
  breaker?: Partial<BreakerPolicy>;
}

export interface StoreGateway {
  gateway: Gateway;
  cache: AccountCache;
  /** What this process knows of the providers' health, and its exit chooser (tests, metrics). */
  health: ProviderHealth;
  chooser: UpstreamExitChooser;
  stop(): Promise<void>;
}

/**
 * The gateway engine fed from the store: accounts and balances from an in-memory cache that re-reads
 * what changed every `refreshMs` and right after each usage flush (so a spent balance is seen within one
 * flush), exits
 * from the upstream supply, usage written back as idempotent batches. With `cutoffs`, a change that
 * may cut an account reaches the cache and the live connections at once instead of at the next poll.
 */
export async function startStoreGateway(o: StoreGatewayOptions): Promise<StoreGateway> {
  // A new id per process: batch numbers restart with the process, so the id must too.
  const gatewayId = `${hostname().slice(0, 40)}-${process.pid}-${randomBytes(4).toString('hex')}`;
  // Set once the gateway is up; a static IP that moved before then has no connection to cut.
  const serving: { gateway?: Gateway } = {};
  const cache = new AccountCache(new AccountCacheRepository(o.db), o.clock, new SealedBox(o.appSecret, SEAL_LABELS.proxyPassword), {
    gatewayId,
    defaultMaxConnections: o.defaultMaxConnections ?? null,
    fullReloadMs: o.fullReloadMs,
    staticUpstreams: new SealedBox(o.appSecret, SEAL_LABELS.staticUpstreamPassword),
    onExitMoved: (accountId) => {
      const closed = serving.gateway?.closeAccount(accountId) ?? 0;
      if (closed > 0) o.log.info({ accountId, closed, cause: 'exit-moved' }, 'gateway: connections through a static IP\'s old exit closed');
    },
  });
  const providers = new ProviderRepository(o.db, o.clock, new SealedBox(o.appSecret, SEAL_LABELS.upstreamPassword));
  const settingsRepo = new SupplySettingsRepository(o.db, o.clock);
  const healthRepo = new GatewayHealthRepository(o.db, o.clock);
  const now = () => o.clock.now().getTime();
  const health = new ProviderHealth({
    policy: o.breaker,
    now,
    onTrip: (providerId, error) => {
      o.log.warn({ providerId, error }, 'gateway: a provider failed too often and is taken out');
      healthRepo.markDown(providerId, error, health.pauseMs).catch((err: unknown) => o.log.warn({ err, providerId }, 'gateway: recording a provider down failed'));
    },
  });
  const chooser = new UpstreamExitChooser({}, { now, health });
  const reservations = o.sharedBudgets ? new ReservationRepository(o.db, o.clock) : undefined;
  const store = new UsageRepository(o.db, o.clock, (userId, bytes) => o.log.warn({ userId, bytes }, 'gateway: traffic carried beyond the balance before the cut-off'), reservations);

  let warnedDirect = false;
  const reload = async () => {
    const [supply, settings, shared] = await Promise.all([providers.supply(), settingsRepo.get(), healthRepo.states()]);
    if (o.production && settings.directEgress && !warnedDirect) {
      warnedDirect = true;
      o.log.warn({}, 'gateway: direct egress is a demo setting and is ignored in production');
    }
    chooser.update(chooserSupply(supply, settings, o.production ?? false));
    health.share(shared);
    await cache.refresh();
    // An address taken off an allowlist loses its connections within a refresh, without waiting for enforceMs.
    serving.gateway?.enforce();
  };
  const sink: UsageSink = {
    async flush(gatewayId: string, seq: number, deltas: UsageDelta[]) {
      await store.flush(gatewayId, seq, deltas);
      await cache.refresh();
      // Bytes just billed to an account now out of traffic or over its cap: it was live here, and may
      // be live on other gateways, which would otherwise notice only at their next poll.
      const spent = new Set(deltas.filter((d) => ['NO_TRAFFIC', 'ACCOUNT_CAP'].includes(cache.standing(d.accountId) ?? '')).map((d) => d.userId));
      for (const userId of spent) void o.cutoffs?.publish({ userId });
    },
  };
  await reload();

  const gateway = createGateway({
    host: o.host,
    httpPort: o.httpPort,
    socksPort: o.socksPort,
    authority: cache,
    chooser,
    health,
    sink,
    gatewayId,
    flushMs: o.flushMs,
    enforceMs: o.enforceMs,
    connectTimeoutMs: o.connectTimeoutMs,
    handshakeTimeoutMs: o.handshakeMs,
    maxPendingPerIp: o.maxPendingPerIp,
    maxPendingPerNet: o.maxPendingPerNet,
    maxConnections: o.maxConnections,
    maxPending: o.maxPending,
    loginFailureSink: new LoginFailureRepository(o.db),
    leaseBytes: o.leaseBytes,
    reservations,
    reservationIdleMs: o.reservationIdleMs,
    allowPrivateDestinations: o.allowPrivateDestinations,
    log: o.log,
    metrics: o.metrics,
    portRanges: o.portRanges,
    now: () => o.clock.now().getTime(),
  });
  await gateway.start();
  serving.gateway = gateway;
  // Returns when this gateway has re-read the user: an in-process API answers after that (cutoff-bus.ts).
  const onCutoff = (e: CutoffEvent): Promise<void> =>
    cache
      .refreshUser(e.userId)
      .then(() => {
        if (e.closeLive && e.accountId !== undefined) {
          const closed = gateway.closeAccount(e.accountId);
          if (closed > 0) o.log.info({ accountId: e.accountId, closed, cause: 'event' }, 'gateway: connections with old credentials closed');
        }
        gateway.enforce();
      })
      .catch((err: unknown) => o.log.warn({ err, userId: e.userId }, 'gateway: re-reading a user after a cut-off event failed; the next poll will'));
  const unsubscribe = o.cutoffs?.subscribe(onCutoff);
  const timer = setInterval(() => {
    reload().catch((err: unknown) => o.log.error({ err }, 'gateway: reloading accounts and supply failed'));
  }, o.refreshMs ?? 2000);
  timer.unref();
  // What this process saw of each provider, for the admin's success rate and latency.
  const windows = setInterval(() => {
    healthRepo.writeWindows(gatewayId, health.windows()).catch((err: unknown) => o.log.warn({ err }, 'gateway: writing provider health windows failed'));
  }, o.flushMs ?? 5000);
  windows.unref();

  return {
    gateway,
    cache,
    health,
    chooser,
    async stop() {
      unsubscribe?.();
      clearInterval(timer);
      clearInterval(windows);
      await gateway.stop();
    },
  };
}

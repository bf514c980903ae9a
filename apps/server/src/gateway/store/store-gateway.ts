import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema';
import type { Clock } from '../../lib/clock';
import { SEAL_LABELS, SealedBox } from '../../lib/sealed-box';
import { SupplyRepository } from '../../modules/supply/supply-repository';
import { type Gateway, createGateway } from '../gateway';
import type { GatewayLog } from '../gateway-log';
import type { UsageDelta, UsageSink } from '../ports';
import { StaticExitChooser } from '../static-exit-chooser';
import { AccountCache } from './account-cache';
import { chooserSupply } from './chooser-supply';
import { UsageStore } from './usage-store';

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
  /** Accounts, balances and supply are re-read this often (besides after every usage flush). */
  refreshMs?: number;
  flushMs?: number;
  enforceMs?: number;
}

export interface StoreGateway {
  gateway: Gateway;
  cache: AccountCache;
  stop(): Promise<void>;
}

/**
 * The gateway engine fed from the store: accounts and balances from an in-memory cache refreshed every
 * `refreshMs` and right after each usage flush (so a spent balance is seen within one flush), exits
 * from the upstream supply, usage written back as idempotent batches.
 */
export async function startStoreGateway(o: StoreGatewayOptions): Promise<StoreGateway> {
  const cache = new AccountCache(o.db, o.clock, new SealedBox(o.appSecret, SEAL_LABELS.proxyPassword));
  const supply = new SupplyRepository(o.db, o.clock, new SealedBox(o.appSecret, SEAL_LABELS.upstreamPassword));
  const chooser = new StaticExitChooser({}, { now: () => o.clock.now().getTime() });
  const store = new UsageStore(o.db, o.clock, (userId, bytes) => o.log.warn({ userId, bytes }, 'gateway: traffic carried beyond the balance before the cut-off'));

  let warnedDirect = false;
  const reload = async () => {
    const [upstreams, settings] = await Promise.all([supply.enabledUpstreams(), supply.settings()]);
    if (o.production && settings.directEgress && !warnedDirect) {
      warnedDirect = true;
      o.log.warn({}, 'gateway: direct egress is a demo setting and is ignored in production');
    }
    chooser.update(chooserSupply(upstreams, settings, o.production ?? false));
    await cache.refresh();
  };
  const sink: UsageSink = {
    async flush(gatewayId: string, seq: number, deltas: UsageDelta[]) {
      await store.flush(gatewayId, seq, deltas);
      await cache.refresh();
    },
  };
  await reload();

  // A new id per process: batch numbers restart with the process, so the id must too.
  const gatewayId = `${hostname().slice(0, 40)}-${process.pid}-${randomBytes(4).toString('hex')}`;
  const gateway = createGateway({
    host: o.host,
    httpPort: o.httpPort,
    socksPort: o.socksPort,
    authority: cache,
    chooser,
    sink,
    gatewayId,
    flushMs: o.flushMs,
    enforceMs: o.enforceMs,
    allowPrivateDestinations: o.allowPrivateDestinations,
    log: o.log,
    now: () => o.clock.now().getTime(),
  });
  await gateway.start();
  const timer = setInterval(() => {
    reload().catch((err: unknown) => o.log.error({ err }, 'gateway: reloading accounts and supply failed'));
  }, o.refreshMs ?? 2000);
  timer.unref();

  return {
    gateway,
    cache,
    async stop() {
      clearInterval(timer);
      await gateway.stop();
    },
  };
}

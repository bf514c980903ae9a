import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ConfigError, isDemo, loadConfig } from './config';
import { openDatabase } from './db/database';
import { migrateToLatest } from './db/migrate';
import { buildApp } from './http/app';
import { systemClock } from './lib/clock';
import { type CutoffBus, LocalCutoffBus } from './lib/cutoff-bus';
import { RedisCutoffBus } from './lib/redis-cutoff-bus';
import pino from 'pino';
import { startStoreGateway } from './gateway/store/store-gateway';
import { createMailer } from './mail/mailer';
import { ensureFirstAdmin } from './modules/auth/bootstrap-admin';
import { UserRepository } from './modules/auth/user-repository';
import { seedDemoCatalogue } from './modules/catalogue/demo-seed';
import { createGatewayMeters } from './ops/gateway-meters';
import { createLogOutput } from './ops/log-output';
import { createMetrics } from './ops/metrics';
import { startOpsListener } from './ops/ops-listener';
import { Readiness } from './ops/readiness';
import { stopOnSignals } from './ops/shutdown';

const ROLES = ['all', 'api', 'gateway'] as const;
type Role = (typeof ROLES)[number];
/** About a second of the busiest API's request log (~10,000 lines of ~400 bytes). */
const LOG_BUFFER_BYTES = 4 * 1024 * 1024;
/** Room for the gateway's last usage flush and its retries (docs/gateway.md), yet a stop that always ends. */
const SHUTDOWN_DEADLINE_MS = 10_000;
/** How long a slow log reader gets to take the last lines once everything else is closed. */
const SHUTDOWN_LOG_FLUSH_MS = 2_000;

function parseRole(argv: string[]): Role {
  const arg = argv.find((a) => a.startsWith('--role='));
  const role = (arg?.slice('--role='.length) ?? 'all') as Role;
  if (!ROLES.includes(role)) throw new ConfigError(`Invalid --role=${role}: use one of ${ROLES.join(', ')}`);
  return role;
}

async function main(): Promise<void> {
  const here = path.dirname(fileURLToPath(import.meta.url));
  const role = parseRole(process.argv.slice(2));
  const config = loadConfig(process.env, path.resolve(here, '../../web/dist'));
  const db = openDatabase({ databaseUrl: config.DATABASE_URL, dataDir: config.dataDir });
  await migrateToLatest(db.db);
  const demo = isDemo(config, db.dialect);
  if (demo && (await seedDemoCatalogue(db.db, systemClock, config.CURRENCY, config.NODE_ENV === 'production'))) {
    process.stdout.write('Demo catalogue created: packages, regions, business lines and the sandbox payment method.\n');
  }

  // Written asynchronously with a bounded buffer (ops/log-output.ts, docs/deployment.md#the-log).
  const logOutput = createLogOutput({
    fd: 1,
    maxBufferBytes: LOG_BUFFER_BYTES,
    onCaughtUp: (dropped) => log.warn({ dropped }, 'log lines dropped while stdout was not read'),
  });
  const log = pino({ level: config.LOG_LEVEL }, logOutput);
  const stops: Array<() => Promise<void>> = [];
  // Cut-offs reach the gateways at once: in this process directly, in others through Redis (docs/gateway.md#cut-off-timing).
  const cutoffs: CutoffBus = config.REDIS_URL
    ? new RedisCutoffBus({ url: config.REDIS_URL, prefix: config.REDIS_PREFIX, log: log.child({ part: 'cutoffs' }) })
    : new LocalCutoffBus(log);
  stops.push(() => cutoffs.close());
  if (role !== 'all' && !config.REDIS_URL) {
    log.info('no REDIS_URL: cut-offs reach other processes\' gateways through their polling of the store (within 10 s)');
  }
  // Redis is checked on the connection this process uses it for: the cut-off bus's.
  const readiness = new Readiness({ db: db.db, redis: cutoffs instanceof RedisCutoffBus ? cutoffs : undefined, log: log.child({ part: 'readiness' }) });
  const metrics = config.METRICS_PORT === undefined ? undefined : createMetrics({ logLinesDropped: logOutput.dropped });

  if (role !== 'gateway') {
    const mailer = createMailer({ smtpUrl: config.SMTP_URL, from: config.MAIL_FROM, dataDir: config.dataDir, log });
    const app = await buildApp({ config, db, mailer, cutoffs, metrics, readiness, logger: { stream: logOutput } });
    await ensureFirstAdmin(new UserRepository(db.db), systemClock, {
      email: config.ADMIN_EMAIL,
      password: config.ADMIN_PASSWORD,
      print: (line) => process.stdout.write(line + '\n'),
    });
    await app.listen({ port: config.PORT, host: config.HOST });
    app.log.info(`console at ${config.PUBLIC_URL}/manage/ (store: ${db.dialect}, data: ${config.dataDir})`);
    stops.push(async () => {
      await app.close();
      mailer.close();
    });
  }
  if (role !== 'api') {
    const meters = metrics && createGatewayMeters(metrics.registry);
    const gw = await startStoreGateway({
      db: db.db,
      clock: systemClock,
      appSecret: config.APP_SECRET,
      host: config.HOST,
      httpPort: config.GATEWAY_HTTP_PORT,
      socksPort: config.GATEWAY_SOCKS_PORT,
      portRanges: { http: config.GATEWAY_PORT_RANGE_HTTP, socks5: config.GATEWAY_PORT_RANGE_SOCKS },
      allowPrivateDestinations: config.GATEWAY_ALLOW_PRIVATE_DESTINATIONS,
      handshakeMs: config.GATEWAY_HANDSHAKE_MS,
      maxPendingPerIp: config.GATEWAY_MAX_PENDING_PER_IP,
      maxPendingPerNet: config.GATEWAY_MAX_PENDING_PER_NET,
      maxConnections: config.GATEWAY_MAX_CONNECTIONS,
      maxPending: config.GATEWAY_MAX_PENDING,
      log: log.child({ part: 'gateway' }),
      production: config.NODE_ENV === 'production',
      cutoffs,
      leaseBytes: config.GATEWAY_LEASE_BYTES,
      defaultMaxConnections: config.GATEWAY_ACCOUNT_MAX_CONNECTIONS ?? null,
      sharedBudgets: config.GATEWAY_SHARED_BUDGETS === 'on' || (config.GATEWAY_SHARED_BUDGETS === 'auto' && db.dialect === 'postgres'),
      metrics: meters?.metrics,
    });
    meters?.watch(gw.gateway);
    log.info(`proxy gateway on ${config.GATEWAY_PUBLIC_HOST}: HTTP ${gw.gateway.httpPort}, SOCKS5 ${gw.gateway.socksPort}`);
    stops.push(() => gw.stop());
  }
  // Stopped first (stops run in reverse): probes see the process gone before its parts close. Health
  // last, so that its log line means the process is fully up.
  const opsLog = log.child({ part: 'ops' });
  if (metrics) {
    const scrape = await startOpsListener({ host: config.METRICS_HOST, port: config.METRICS_PORT!, metrics: metrics.registry, log: opsLog });
    log.info(`metrics on ${config.METRICS_HOST}:${scrape.port}/metrics`);
    stops.push(() => scrape.close());
  }
  if (config.HEALTH_PORT !== undefined) {
    const health = await startOpsListener({ host: config.HOST, port: config.HEALTH_PORT, readiness, log: opsLog });
    log.info(`health checks on port ${health.port}: /healthz, /readyz`);
    stops.push(() => health.close());
  }

  stopOnSignals({
    // The gateway's stop flushes metered bytes: it must finish before the store closes.
    stop: async () => {
      for (const stop of stops.reverse()) await stop();
      await db.db.destroy();
    },
    log,
    output: logOutput,
    deadlineMs: SHUTDOWN_DEADLINE_MS,
    logFlushMs: SHUTDOWN_LOG_FLUSH_MS,
  });
}

main().catch((err: unknown) => {
  if (err instanceof ConfigError) {
    process.stderr.write(err.message + '\n');
  } else {
    process.stderr.write(`Failed to start: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  }
  process.exit(1);
});

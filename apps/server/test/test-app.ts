import type { FastifyInstance } from 'fastify';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { inject } from 'vitest';
import { type Config, loadConfig } from '../src/config';
import { type Db, type Dialect, openDatabase } from '../src/db/database';
import { migrateToLatest } from '../src/db/migrate';
import { buildApp } from '../src/http/app';
import { RATE_LIMITS, type RateLimitRules } from '../src/http/rate-limits';
import type { CutoffBus } from '../src/lib/cutoff-bus';
import { createMailer } from '../src/mail/mailer';
import type { Metrics } from '../src/ops/metrics';
import { type StoreTemplates, TEST_DATABASE_URL, copySqliteTemplate } from './store-templates';
import { TestClock } from './test-clock';

/** Every data test runs once per dialect (Kysely's own test style). */
export const DIALECTS: Dialect[] = ['sqlite', 'postgres'];

export { TEST_DATABASE_URL };

export const CAPTCHA = '2468';

export interface TestApp {
  app: FastifyInstance;
  db: Db;
  clock: TestClock;
  config: Config;
  close(): Promise<void>;
}

/** This run's migrated templates (test/global-setup.ts); undefined when the run has none (then tests migrate). */
function storeTemplates(): StoreTemplates | undefined {
  try {
    return inject('storeTemplates');
  } catch {
    return undefined;
  }
}

/**
 * A fresh PostgreSQL database per test app, so files run in parallel without seeing each other's rows.
 * Empty, or with `migrated` a copy of this run's migrated template; `migrated` then says whether it is one.
 */
export async function createPgDatabase(opts: { migrated?: boolean } = {}): Promise<{ url: string; migrated: boolean; drop(): Promise<void> }> {
  const name = `resi_t_${process.pid}_${Math.random().toString(36).slice(2, 10)}`;
  const template = opts.migrated ? storeTemplates()?.postgres : undefined;
  const admin = new pg.Client({ connectionString: TEST_DATABASE_URL });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}${template ? ` TEMPLATE ${template}` : ''}`);
  await admin.end();
  const url = new URL(TEST_DATABASE_URL);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    migrated: Boolean(template),
    async drop() {
      const c = new pg.Client({ connectionString: TEST_DATABASE_URL });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await c.end();
    },
  };
}

/**
 * A store of the dialect with every migration run, for a test app or two handles: a copy of this run's
 * template (a new database on PostgreSQL, the file copied into the empty `dataDir` on SQLite). `migrated`
 * is false when the run has no templates: the caller then migrates it.
 */
export async function createMigratedStore(dialect: Dialect, dataDir: string): Promise<{ databaseUrl?: string; migrated: boolean; drop(): Promise<void> }> {
  if (dialect === 'postgres') {
    const pgDb = await createPgDatabase({ migrated: true });
    return { databaseUrl: pgDb.url, migrated: pgDb.migrated, drop: pgDb.drop };
  }
  const template = storeTemplates()?.sqlite;
  if (template) copySqliteTemplate(template, dataDir);
  return { migrated: Boolean(template), drop: async () => undefined };
}

export interface TestAppOptions {
  /** Built web console to serve under /manage/ (config.webDist). */
  webDist?: string;
  /** Receives every log line of the app and the mailer (JSON), for tests about what is logged. */
  log?: (line: string) => void;
  /** Runs on the built app before `ready()`: the place to add test-only routes or hooks. */
  beforeReady?: (app: FastifyInstance) => void | Promise<void>;
  /** Where the app announces proxy-account cut-offs (a gateway in the test subscribes to the same bus). */
  cutoffs?: CutoffBus;
  /**
   * Request limits. Tests of other things make many calls from one loopback address, so by default every
   * limit is raised a thousandfold; tests of the limits pass RATE_LIMITS, the real defaults.
   */
  rateLimits?: RateLimitRules;
  /** The operators' metrics (as main.ts builds them with METRICS_PORT): request durations and job runs. */
  metrics?: Metrics;
  /**
   * A second API process on this app's store: its own store handle (for SQLite its own connection to the
   * same file), the same data folder, secret and clock. Closing it leaves the store to its owner.
   */
  sameStoreAs?: TestApp;
}

export async function createTestApp(dialect: Dialect, env: Record<string, string> = {}, opts: TestAppOptions = {}): Promise<TestApp> {
  const owner = opts.sameStoreAs;
  const dataDir = owner?.config.dataDir ?? mkdtempSync(path.join(tmpdir(), 'resi-test-'));
  const store = owner ? null : await createMigratedStore(dialect, dataDir);
  const databaseUrl = owner?.config.DATABASE_URL ?? store?.databaseUrl;
  const config = loadConfig(
    {
      NODE_ENV: 'test',
      DATA_DIR: dataDir,
      CAPTCHA_TEST_ANSWER: CAPTCHA,
      LOG_LEVEL: 'silent',
      // Static IPs imported by tests sit on documentation and loopback addresses, as the gateway
      // fixtures' origins do; a test of the refusal says 'false'. Production refuses the switch.
      ...(env.NODE_ENV === 'production' ? {} : { GATEWAY_ALLOW_PRIVATE_DESTINATIONS: 'true', ALLOWLIST_PRIVATE_ADDRESSES: 'true' }),
      ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
      ...env,
    },
    opts.webDist ?? null,
  );
  const db = openDatabase({ databaseUrl: config.DATABASE_URL, dataDir });
  const clock = owner?.clock ?? new TestClock();
  const log = opts.log;
  // As in main.ts: the mailer logs through the app's logger.
  const mailLog = log ? ({ info: (o: object, m: string) => app?.log.info(o, m) } as never) : silentLog;
  const mailer = createMailer({ smtpUrl: config.SMTP_URL, from: config.MAIL_FROM, dataDir, log: mailLog });
  let app: FastifyInstance | undefined;
  const close = async () => {
    await app?.close();
    mailer.close();
    await db.db.destroy();
    if (owner) return;
    await store?.drop();
    rmSync(dataDir, { recursive: true, force: true });
  };
  try {
    if (store && !store.migrated) await migrateToLatest(db.db);
    const logger = log ? { level: 'trace', stream: { write: (line: string) => log(line) } } : false;
    app = await buildApp({ config, db, mailer, clock, logger, cutoffs: opts.cutoffs, rateLimits: opts.rateLimits ?? RAISED_RATE_LIMITS, metrics: opts.metrics });
    await opts.beforeReady?.(app);
    await app.ready();
  } catch (err) {
    // A test that expects the app not to start must not leak its database and directory.
    await close().catch(() => undefined);
    throw err;
  }
  return { app, db, clock, config, close };
}

const silentLog = { info: () => undefined } as never;

const RAISED_RATE_LIMITS = Object.fromEntries(
  Object.entries(RATE_LIMITS).map(([name, r]) => [
    name,
    {
      perIp: { ...r.perIp, max: r.perIp.max * 1000 },
      ...(r.perUser ? { perUser: { ...r.perUser, max: r.perUser.max * 1000 } } : {}),
      ...(r.perKey ? { perKey: { ...r.perKey, max: r.perKey.max * 1000 } } : {}),
    },
  ]),
) as RateLimitRules;

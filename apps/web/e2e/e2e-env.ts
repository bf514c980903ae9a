import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

export type E2EStore = 'sqlite' | 'postgres';

/** E2E_DATABASE picks the store the e2e server runs on: `sqlite` (default) or `postgres` (a fresh database). */
function storeFromEnv(value: string | undefined): E2EStore {
  if (!value || value === 'sqlite') return 'sqlite';
  if (value === 'postgres') return 'postgres';
  throw new Error(`E2E_DATABASE must be sqlite or postgres, not ${value}`);
}

const store = storeFromEnv(process.env.E2E_DATABASE);

// One database name per run, made once in the runner and inherited by its workers (which load this file too).
process.env.E2E_DB_NAME ??= `resi_e2e_${Date.now()}_${process.pid}`;

/** Ports are counted from E2E_PORT_BASE (default 18000), so two suites can run side by side on one machine. */
const base = Number(process.env.E2E_PORT_BASE ?? 18000);

/** The built server the browser tests run against, with its own throw-away store. */
export const E2E = {
  root,
  store,
  /** PostgreSQL server the e2e database is created on (and dropped from); the server tests use the same one. */
  adminDatabaseUrl: process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test',
  /** Unique per run: `resi_e2e_<ms>_<pid>`; only used when store is postgres. */
  databaseName: process.env.E2E_DB_NAME,
  port: base + 80,
  baseURL: `http://127.0.0.1:${base + 80}`,
  dataDir: path.join(root, 'artifacts/e2e-data', `${store}${process.env.E2E_PORT_BASE ? `-${base}` : ''}`),
  screenshots: path.join(root, 'artifacts/screenshots', store),
  captcha: '2468',
  adminEmail: 'admin@e2e.test',
  adminPassword: 'AdminPass123',
  /** The proxy gateway of the e2e server, and a local origin its curl lines fetch (PROXY_CHECK_URL). */
  gatewayHttpPort: base + 777,
  gatewaySocksPort: base + 778,
  originPort: base + 557,
  /** A local HTTP proxy a static IP's inventory row points at (upstream-proxy.mjs). */
  upstreamPort: base + 558,
  /** Port endpoints (docs/gateway.md#port-endpoints): ten HTTP and ten SOCKS5 ports, one sticky session each. */
  portRangeHttp: [base + 800, base + 809] as const,
  portRangeSocks: [base + 810, base + 819] as const,
};

import { type Kysely, type Migration, type MigrationProvider, Migrator, SqliteAdapter, sql } from 'kysely';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Database } from './schema';
import * as accounts from './migrations/2026-11-22-accounts';
import * as commerce from './migrations/2026-11-23-commerce';
import * as gateway from './migrations/2026-11-24-gateway';
import * as mailCodeLive from './migrations/2026-11-25-mail-code-live';
import * as gatewayAuthFailures from './migrations/2026-11-26-gateway-auth-failures';
import * as proxyAccountLimits from './migrations/2026-11-27-proxy-account-limits';
import * as exportTicketSession from './migrations/2026-11-28-export-ticket-session';
import * as gatewayReservations from './migrations/2026-11-29-gateway-reservations';
import * as jobLeases from './migrations/2026-11-30-job-leases';
import * as changeVersions from './migrations/2026-12-01-change-versions';
import * as staticInventory from './migrations/2026-12-02-static-inventory';
import * as staticAllocations from './migrations/2026-12-03-static-allocations';
import * as staticChangeVersions from './migrations/2026-12-04-static-change-versions';
import * as userAdmin from './migrations/2026-12-05-user-admin';
import * as loginLogIndexes from './migrations/2026-12-06-login-log-indexes';
import * as statisticsIndexes from './migrations/2026-12-07-statistics-indexes';
import * as distribution from './migrations/2026-12-08-distribution';
import * as statisticsRollups from './migrations/2026-12-09-statistics-rollups';
import * as referralStanding from './migrations/2026-12-10-referral-standing';
import * as loginThrottle from './migrations/2026-12-12-login-throttle';
import * as allowlistExtraction from './migrations/2026-12-14-allowlist-extraction';
import * as apiKeys from './migrations/2026-12-16-api-keys';
import * as alerts from './migrations/2026-12-17-alerts';
import * as webhooks from './migrations/2026-12-18-webhooks';
import * as providers from './migrations/2026-12-19-providers';

/** Listed here rather than read from disk so the bundled server carries them. Names sort by date. */
const migrations: Record<string, Migration> = {
  '2026-11-22-accounts': accounts,
  '2026-11-23-commerce': commerce,
  '2026-11-24-gateway': gateway,
  '2026-11-25-mail-code-live': mailCodeLive,
  '2026-11-26-gateway-auth-failures': gatewayAuthFailures,
  '2026-11-27-proxy-account-limits': proxyAccountLimits,
  '2026-11-28-export-ticket-session': exportTicketSession,
  '2026-11-29-gateway-reservations': gatewayReservations,
  '2026-11-30-job-leases': jobLeases,
  '2026-12-01-change-versions': changeVersions,
  '2026-12-02-static-inventory': staticInventory,
  '2026-12-03-static-allocations': staticAllocations,
  '2026-12-04-static-change-versions': staticChangeVersions,
  '2026-12-05-user-admin': userAdmin,
  '2026-12-06-login-log-indexes': loginLogIndexes,
  '2026-12-07-statistics-indexes': statisticsIndexes,
  '2026-12-08-distribution': distribution,
  '2026-12-09-statistics-rollups': statisticsRollups,
  '2026-12-10-referral-standing': referralStanding,
  '2026-12-12-login-throttle': loginThrottle,
  '2026-12-14-allowlist-extraction': allowlistExtraction,
  '2026-12-16-api-keys': apiKeys,
  '2026-12-17-alerts': alerts,
  '2026-12-18-webhooks': webhooks,
  '2026-12-19-providers': providers,
};

/** Exported for tests that stop at an earlier migration to check how a later one carries data over. */
export const provider: MigrationProvider = { getMigrations: async () => migrations };

/**
 * Two processes may start at once. On PostgreSQL Kysely's migrator serializes them with an advisory lock
 * inside a transaction. On SQLite it takes no lock at all (SqliteAdapter.acquireMigrationLock is a no-op),
 * so both would run the same migration and one fails with "table … already exists": there we hold the
 * database's write lock (BEGIN IMMEDIATE) for the whole run, which also makes a run all-or-nothing.
 */
export async function migrateToLatest(db: Kysely<Database>): Promise<void> {
  const isSqlite = db.getExecutor().adapter instanceof SqliteAdapter;
  const { error, results } = isSqlite ? await migrateSqliteExclusively(db) : await new Migrator({ db, provider }).migrateToLatest();
  const failed = results?.find((r) => r.status === 'Error');
  if (error || failed) {
    throw new Error(`Migration ${failed?.migrationName ?? ''} failed: ${String((error as Error)?.message ?? error)}`);
  }
}

/** Names of the migrations this build knows that the store has not run, oldest first (empty: at latest). */
export async function pendingMigrations(db: Kysely<Database>): Promise<string[]> {
  const all = await new Migrator({ db, provider }).getMigrations();
  return all.filter((m) => m.executedAt === undefined).map((m) => m.name);
}

const SQLITE_LOCK_WAIT = 30_000;

async function migrateSqliteExclusively(db: Kysely<Database>) {
  return db.connection().execute(async (conn) => {
    // better-sqlite3 is synchronous: its busy_timeout would block the event loop, and with it a second
    // handle in this same process that holds the lock. Poll without blocking instead.
    const [{ timeout } = { timeout: 5000 }] = (await sql<{ timeout: number }>`pragma busy_timeout`.execute(conn)).rows;
    await sql`pragma busy_timeout = 0`.execute(conn);
    try {
      const deadline = Date.now() + SQLITE_LOCK_WAIT;
      for (;;) {
        try {
          await sql`begin immediate`.execute(conn);
          break;
        } catch (err) {
          if ((err as { code?: string }).code !== 'SQLITE_BUSY' || Date.now() > deadline) throw err;
          await sleep(20);
        }
      }
    } finally {
      await sql.raw(`pragma busy_timeout = ${Number(timeout)}`).execute(conn);
    }
    try {
      const result = await new Migrator({ db: conn, provider }).migrateToLatest();
      await sql.raw(result.error ? 'rollback' : 'commit').execute(conn);
      return result;
    } catch (err) {
      await sql`rollback`.execute(conn);
      throw err;
    }
  });
}

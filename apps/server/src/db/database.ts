import Sqlite from 'better-sqlite3';
import { Kysely, PostgresDialect, SqliteDialect, type SqliteDatabase } from 'kysely';
import path from 'node:path';
import pg from 'pg';
import type { Database } from './schema';

export type Dialect = 'sqlite' | 'postgres';

/** The SQLite store's file in DATA_DIR (with its -wal and -shm beside it while open). */
export const SQLITE_FILE = 'resi.sqlite';
export interface Db {
  db: Kysely<Database>;
  dialect: Dialect;
  /**
   * A number that changes whenever a write may have reached the store since it was last read: one by this
   * handle or one committed by any other connection or process. Undefined where the store cannot tell
   * without a round trip (PostgreSQL). The session cache relies on it (modules/auth/session-cache.ts).
   */
  storeVersion?: () => number;
}

// BIGINT (int8) comes back from pg as a string by default; our counters fit in a JS number (2^53 bytes).
pg.types.setTypeParser(20, (v) => Number(v));

export function openDatabase(opts: { databaseUrl?: string; dataDir: string }): Db {
  if (opts.databaseUrl) {
    const pool = new pg.Pool({ connectionString: opts.databaseUrl, max: 10 });
    // An idle client whose connection the server ends (restart, failover, a dropped test database) leaves
    // the pool and the next query opens a new one; unlistened, pg-pool's 'error' event would end the process.
    pool.on('error', () => undefined);
    return { db: new Kysely<Database>({ dialect: new PostgresDialect({ pool }) }), dialect: 'postgres' };
  }
  const sqlite = new Sqlite(path.join(opts.dataDir, SQLITE_FILE));
  // WAL lets the gateway and API read while another writes; busy_timeout waits out a second process's write.
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('busy_timeout = 5000');
  sqlite.pragma('foreign_keys = ON');
  const version = new StoreVersion(sqlite);
  return {
    db: new Kysely<Database>({ dialect: new SqliteDialect({ database: withStatementCache(sqlite, version) }) }),
    dialect: 'sqlite',
    storeVersion: () => version.read(),
  };
}

/**
 * SQLite's `PRAGMA data_version` changes when another connection (another process) has committed, but
 * not for this connection's own writes: those are counted as they are run. Any statement that is not a
 * plain read counts, transaction control included; triggers may write to other tables, so no statement
 * is judged by the tables it names.
 *
 * Another connection's commit is looked for once per turn of the event loop, not on every call: the
 * pragma is a read transaction (two file-lock system calls), and it was the largest cost of a signed-in
 * request answered from the session cache. A commit that lands during a turn is seen from the next one;
 * a request sent after that commit was answered arrives in a later turn (docs/architecture.md#a-signed-in-requests-own-cost).
 */
class StoreVersion {
  private readonly dataVersion: Sqlite.Statement<[], number>;
  private seen: number;
  private value = 0;
  private lookedThisTurn = false;
  private readonly nextTurn = () => {
    this.lookedThisTurn = false;
  };

  constructor(sqlite: Sqlite.Database) {
    this.dataVersion = sqlite.prepare<[], number>('PRAGMA data_version').pluck();
    this.seen = this.dataVersion.get()!;
  }

  written(): void {
    this.value += 1;
  }

  read(): number {
    if (this.lookedThisTurn) return this.value;
    this.lookedThisTurn = true;
    setImmediate(this.nextTurn);
    const v = this.dataVersion.get()!;
    if (v !== this.seen) {
      this.seen = v;
      this.value += 1;
    }
    return this.value;
  }
}

/** Distinct SQL texts kept compiled; the app has a few hundred queries, `IN (…)` lists of many lengths aside. */
const STATEMENT_CACHE = 1000;

/**
 * Kysely's SQLite driver calls `prepare()` for every query it runs, and better-sqlite3 compiles the SQL
 * each time: on a signed-in API request that was a third of the database time. Statements are reused by
 * their SQL text. Safe because the driver runs a statement to completion synchronously (`all`/`run`),
 * and SQLite recompiles a statement by itself after a schema change. `.stream()` (iterate) would hold a
 * statement busy: no query of ours streams.
 */
function withStatementCache(sqlite: Sqlite.Database, version: StoreVersion): SqliteDatabase {
  const cache = new Map<string, Sqlite.Statement>();
  const prepared = (sql: string) => {
    let stmt = cache.get(sql);
    if (stmt) return stmt;
    stmt = sqlite.prepare(sql);
    // First in, first out: cheap, and the hot queries come straight back.
    if (cache.size >= STATEMENT_CACHE) cache.delete(cache.keys().next().value!);
    cache.set(sql, stmt);
    return stmt;
  };
  return {
    close: () => sqlite.close(),
    // The driver runs what it prepares at once, synchronously: counting here counts the write.
    prepare(sql: string) {
      const stmt = prepared(sql);
      if (!stmt.reader || !stmt.readonly) version.written();
      return stmt;
    },
  };
}

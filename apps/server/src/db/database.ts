import Sqlite from 'better-sqlite3';
import { Kysely, PostgresDialect, SqliteDialect, type SqliteDatabase } from 'kysely';
import path from 'node:path';
import pg from 'pg';
import type { Database } from './schema';

export type Dialect = 'sqlite' | 'postgres';
export interface Db {
  db: Kysely<Database>;
  dialect: Dialect;
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
  const sqlite = new Sqlite(path.join(opts.dataDir, 'resi.sqlite'));
  // WAL lets the gateway and API read while another writes; busy_timeout waits out a second process's write.
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('busy_timeout = 5000');
  sqlite.pragma('foreign_keys = ON');
  return { db: new Kysely<Database>({ dialect: new SqliteDialect({ database: withStatementCache(sqlite) }) }), dialect: 'sqlite' };
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
function withStatementCache(sqlite: Sqlite.Database): SqliteDatabase {
  const cache = new Map<string, Sqlite.Statement>();
  return {
    close: () => sqlite.close(),
    prepare(sql: string) {
      let stmt = cache.get(sql);
      if (stmt) return stmt;
      stmt = sqlite.prepare(sql);
      // First in, first out: cheap, and the hot queries come straight back.
      if (cache.size >= STATEMENT_CACHE) cache.delete(cache.keys().next().value!);
      cache.set(sql, stmt);
      return stmt;
    },
  };
}

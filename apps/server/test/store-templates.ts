import { createHash } from 'node:crypto';
import { copyFileSync, existsSync, mkdtempSync, readFileSync, readdirSync, renameSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { SQLITE_FILE, openDatabase } from '../src/db/database';
import { migrateToLatest } from '../src/db/migrate';

/**
 * Migrated template stores, made once per test run by the server project's globalSetup
 * (test/global-setup.ts) before any worker starts; every test app then starts from a copy instead of
 * running the migrations again (test/test-app.ts). Tests about migrating start from empty stores.
 *
 * A template is named by a hash of the migrations, so a changed migration makes a new one. Runs on one
 * machine (and one PostgreSQL server) share templates: each run holds a shared advisory lock on its
 * template's key for as long as it runs, and a template of other migrations is dropped only by a run that
 * can take that key exclusively, i.e. while no run uses it. Building and dropping happen under one
 * setup lock, so two runs never build the same template at once.
 */

/** CI points this at the machine's PostgreSQL; the default is the same local server. */
export const TEST_DATABASE_URL = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

/** What test/global-setup.ts hands to the workers through vitest's provide/inject. */
export interface StoreTemplates {
  /** A PostgreSQL database to pass to CREATE DATABASE … TEMPLATE; nobody may connect to it. */
  postgres: string;
  /** A folder holding a migrated, checkpointed SQLite file (database.ts SQLITE_FILE) to copy. */
  sqlite: string;
}

declare module 'vitest' {
  export interface ProvidedContext {
    storeTemplates: StoreTemplates;
  }
}

const SRC_DB = path.join(import.meta.dirname, '../src/db');
// pg_advisory_lock(int4, int4): the first number says "resi test templates", the second which lock.
const LOCK_CLASS = 0x72_65_73_69;
const SETUP_LOCK = 0;
const PG_PREFIX = 'resi_tpl_';
const SQLITE_PREFIX = 'resi-tpl-';

/** 12 hex digits of a hash of every migration file and of migrate.ts, which lists them. */
export function migrationsHash(): string {
  const h = createHash('sha256');
  const dir = path.join(SRC_DB, 'migrations');
  for (const f of readdirSync(dir).sort()) h.update(`${f}\0`).update(readFileSync(path.join(dir, f))).update('\0');
  h.update(readFileSync(path.join(SRC_DB, 'migrate.ts')));
  return h.digest('hex').slice(0, 12);
}

/** The advisory lock key of a template (never SETUP_LOCK: the top bit is set, so it is negative). */
const keyOf = (hash: string) => parseInt(hash.slice(0, 7), 16) | 0x8000_0000;

/**
 * Makes sure this run's templates exist (building the missing ones), drops templates of other migrations
 * that no run is using, and marks this run's as in use until `release`.
 */
export async function prepareStoreTemplates(adminUrl: string): Promise<StoreTemplates & { release(): Promise<void> }> {
  const hash = migrationsHash();
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    await admin.query('select pg_advisory_lock($1, $2)', [LOCK_CLASS, SETUP_LOCK]);
    try {
      await admin.query('select pg_advisory_lock_shared($1, $2)', [LOCK_CLASS, keyOf(hash)]);
      await dropUnused(admin, hash);
      const templates = { postgres: await pgTemplate(admin, adminUrl, hash), sqlite: await sqliteTemplate(hash) };
      return { ...templates, release: () => admin.end() };
    } finally {
      await admin.query('select pg_advisory_unlock($1, $2)', [LOCK_CLASS, SETUP_LOCK]);
    }
  } catch (err) {
    await admin.end().catch(() => undefined);
    throw err;
  }
}

/** Copies the SQLite template into an empty data folder: the file a fresh store would have after migrating. */
export function copySqliteTemplate(template: string, dataDir: string): void {
  copyFileSync(path.join(template, SQLITE_FILE), path.join(dataDir, SQLITE_FILE));
}

async function pgTemplate(admin: pg.Client, adminUrl: string, hash: string): Promise<string> {
  const name = `${PG_PREFIX}${hash}`;
  if ((await admin.query('select 1 from pg_database where datname = $1', [name])).rowCount) return name;
  // Built under another name and renamed when complete: a run that died half-way leaves no template.
  const build = `${name}_build`;
  await admin.query(`DROP DATABASE IF EXISTS ${build} WITH (FORCE)`);
  await admin.query(`CREATE DATABASE ${build}`);
  const url = new URL(adminUrl);
  url.pathname = `/${build}`;
  const db = openDatabase({ databaseUrl: url.toString(), dataDir: tmpdir() });
  try {
    await migrateToLatest(db.db);
  } finally {
    await db.db.destroy();
  }
  // No connections: CREATE DATABASE … TEMPLATE refuses a template anyone is connected to.
  await admin.query(`ALTER DATABASE ${build} WITH IS_TEMPLATE true ALLOW_CONNECTIONS false`);
  await admin.query(`ALTER DATABASE ${build} RENAME TO ${name}`);
  return name;
}

async function sqliteTemplate(hash: string): Promise<string> {
  const dir = path.join(tmpdir(), `${SQLITE_PREFIX}${hash}`);
  if (existsSync(path.join(dir, SQLITE_FILE))) return dir;
  rmSync(dir, { recursive: true, force: true });
  const build = mkdtempSync(path.join(tmpdir(), `${SQLITE_PREFIX}${hash}.build-`));
  const db = openDatabase({ dataDir: build });
  try {
    await migrateToLatest(db.db);
  } finally {
    // Closing the last connection checkpoints the WAL into the file and removes it: one file to copy.
    await db.db.destroy();
  }
  const left = readdirSync(build).filter((f) => f !== SQLITE_FILE);
  if (left.length > 0) throw new Error(`SQLite template ${build} kept ${left.join(', ')} after closing`);
  renameSync(build, dir);
  return dir;
}

/** Templates (and half-built ones) of other migrations that no running test run holds. */
async function dropUnused(admin: pg.Client, hash: string): Promise<void> {
  const pgNames = (await admin.query<{ datname: string }>('select datname from pg_database where datname like $1', [`${PG_PREFIX}%`])).rows.map((r) => r.datname);
  const sqliteNames = readdirSync(tmpdir()).filter((n) => n.startsWith(SQLITE_PREFIX));
  const hashOf = (n: string, prefix: string) => /^[0-9a-f]{12}/.exec(n.slice(prefix.length))?.[0];
  const stale = new Map<string, { pg: string[]; sqlite: string[] }>();
  const add = (h: string | undefined, kind: 'pg' | 'sqlite', n: string) => {
    if (!h) return;
    if (!stale.has(h)) stale.set(h, { pg: [], sqlite: [] });
    stale.get(h)![kind].push(n);
  };
  for (const n of pgNames) add(hashOf(n, PG_PREFIX), 'pg', n);
  for (const n of sqliteNames) add(hashOf(n, SQLITE_PREFIX), 'sqlite', n);
  // Our own half-built leftovers go too: nobody builds while we hold the setup lock.
  const ours = stale.get(hash);
  stale.delete(hash);
  for (const n of ours?.pg ?? []) if (n.endsWith('_build')) await dropPg(admin, n);
  for (const n of ours?.sqlite ?? []) if (n.includes('.build-')) rmSync(path.join(tmpdir(), n), { recursive: true, force: true });
  for (const [h, names] of stale) {
    const { rows } = await admin.query<{ free: boolean }>('select pg_try_advisory_lock($1, $2) as free', [LOCK_CLASS, keyOf(h)]);
    if (!rows[0]?.free) continue; // a run of those migrations is going on
    try {
      for (const n of names.pg) await dropPg(admin, n);
      for (const n of names.sqlite) rmSync(path.join(tmpdir(), n), { recursive: true, force: true });
    } finally {
      await admin.query('select pg_advisory_unlock($1, $2)', [LOCK_CLASS, keyOf(h)]);
    }
  }
}

async function dropPg(admin: pg.Client, name: string): Promise<void> {
  await admin.query(`ALTER DATABASE ${name} WITH IS_TEMPLATE false`);
  await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
}

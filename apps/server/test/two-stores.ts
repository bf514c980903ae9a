import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { type Db, type Dialect, openDatabase } from '../src/db/database';
import { migrateToLatest } from '../src/db/migrate';
import { createMigratedStore } from './test-app';

/**
 * One migrated store seen through two independent handles, as two API processes see it (for SQLite,
 * two connections to one file). `close` ends both and removes the store.
 */
export async function twoStores(dialect: Dialect): Promise<{ a: Db; b: Db; close(): Promise<void> }> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'resi-two-stores-'));
  const store = await createMigratedStore(dialect, dataDir);
  const a = openDatabase({ databaseUrl: store.databaseUrl, dataDir });
  const b = openDatabase({ databaseUrl: store.databaseUrl, dataDir });
  if (!store.migrated) await migrateToLatest(a.db);
  return {
    a,
    b,
    async close() {
      await a.db.destroy();
      await b.db.destroy();
      await store.drop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

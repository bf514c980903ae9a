import { sql } from 'kysely';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createPgDatabase } from '../../test/test-app';
import { type Db, openDatabase } from './database';
import { migrateToLatest } from './migrate';

const APP_TABLES = [
  'alert_crossings',
  'alert_settings',
  'allowlist_entries',
  'api_key_days',
  'api_keys',
  'audit_logs',
  'businesses',
  'captchas',
  'channel_visits',
  'commissions',
  'export_tickets',
  'extract_keys',
  'gateway_reservations',
  'intention_logs',
  'job_leases',
  'login_addresses',
  'login_logs',
  'mail_codes',
  'notices',
  'orders',
  'packages',
  'pay_configs',
  'payment_events',
  'payoff_requests',
  'port_leases',
  'proxy_accounts',
  'regions',
  'sessions',
  'settings',
  'static_allocations',
  'static_inventory',
  'static_inventory_businesses',
  'static_inventory_events',
  'static_prices',
  'static_regions',
  'traffic_grants',
  'upstreams',
  'usage_daily',
  'usage_flushes',
  'usage_hourly',
  'users',
  'webhook_deliveries',
  'webhook_endpoints',
  'webhook_event_keys',
];

describe.each(['sqlite', 'postgres'] as const)('migrations on %s', (dialect) => {
  const cleanups: Array<() => Promise<void>> = [];
  afterEach(async () => {
    for (const c of cleanups.splice(0).reverse()) await c();
  });

  /** Two independent handles on one store, as two processes starting at once would have. */
  async function twoHandles(): Promise<[Db, Db]> {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'resi-migrate-'));
    cleanups.push(async () => rmSync(dataDir, { recursive: true, force: true }));
    let databaseUrl: string | undefined;
    if (dialect === 'postgres') {
      const pg = await createPgDatabase();
      databaseUrl = pg.url;
      cleanups.push(pg.drop);
    }
    const a = openDatabase({ databaseUrl, dataDir });
    const b = openDatabase({ databaseUrl, dataDir });
    cleanups.push(async () => {
      await a.db.destroy();
      await b.db.destroy();
    });
    return [a, b];
  }

  it('two handles migrating at once both succeed and apply each migration once', async () => {
    const [a, b] = await twoHandles();
    const results = await Promise.allSettled([migrateToLatest(a.db), migrateToLatest(b.db)]);
    expect(results.map((r) => (r.status === 'rejected' ? String(r.reason) : 'ok'))).toEqual(['ok', 'ok']);

    const tables = (await a.db.introspection.getTables()).map((t) => t.name).sort();
    // SQLite counts its change versions in a table; PostgreSQL takes them from transaction ids.
    expect(tables).toEqual(dialect === 'sqlite' ? [...APP_TABLES, 'change_clock'].sort() : APP_TABLES);
    const applied = await sql<{ name: string }>`select name from kysely_migration`.execute(a.db);
    expect(applied.rows.map((r) => r.name)).toEqual(['2026-11-22-accounts', '2026-11-23-commerce', '2026-11-24-gateway', '2026-11-25-mail-code-live', '2026-11-26-gateway-auth-failures', '2026-11-27-proxy-account-limits', '2026-11-28-export-ticket-session', '2026-11-29-gateway-reservations', '2026-11-30-job-leases', '2026-12-01-change-versions', '2026-12-02-static-inventory', '2026-12-03-static-allocations', '2026-12-04-static-change-versions', '2026-12-05-user-admin', '2026-12-06-login-log-indexes', '2026-12-07-statistics-indexes', '2026-12-08-distribution', '2026-12-09-statistics-rollups', '2026-12-10-referral-standing', '2026-12-12-login-throttle', '2026-12-14-allowlist-extraction', '2026-12-16-api-keys', '2026-12-17-alerts', '2026-12-18-webhooks']);
    // The schema works from both handles.
    await a.db.insertInto('captchas').values({ id: 'x', answer_hash: 'h', expires_at: 'e' }).execute();
    expect(await b.db.selectFrom('captchas').select('id').execute()).toEqual([{ id: 'x' }]);
  });

  it('migrating an up-to-date store again changes nothing', async () => {
    const [a, b] = await twoHandles();
    await migrateToLatest(a.db);
    await expect(migrateToLatest(b.db)).resolves.toBeUndefined();
    const applied = await sql<{ n: number }>`select count(*) as n from kysely_migration`.execute(a.db);
    expect(Number(applied.rows[0]?.n)).toBe(24);
  });
});

import { sql } from 'kysely';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createPgDatabase } from '../../test/test-app';
import { type Db, openDatabase } from './database';
import { Migrator } from 'kysely';
import { migrateToLatest, provider } from './migrate';

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
  'provider_costs',
  'provider_health',
  'provider_usage_daily',
  'provider_windows',
  'providers',
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
    expect(applied.rows.map((r) => r.name)).toEqual(['2026-11-22-accounts', '2026-11-23-commerce', '2026-11-24-gateway', '2026-11-25-mail-code-live', '2026-11-26-gateway-auth-failures', '2026-11-27-proxy-account-limits', '2026-11-28-export-ticket-session', '2026-11-29-gateway-reservations', '2026-11-30-job-leases', '2026-12-01-change-versions', '2026-12-02-static-inventory', '2026-12-03-static-allocations', '2026-12-04-static-change-versions', '2026-12-05-user-admin', '2026-12-06-login-log-indexes', '2026-12-07-statistics-indexes', '2026-12-08-distribution', '2026-12-09-statistics-rollups', '2026-12-10-referral-standing', '2026-12-12-login-throttle', '2026-12-14-allowlist-extraction', '2026-12-16-api-keys', '2026-12-17-alerts', '2026-12-18-webhooks', '2026-12-19-providers']);
    // The schema works from both handles.
    await a.db.insertInto('captchas').values({ id: 'x', answer_hash: 'h', expires_at: 'e' }).execute();
    expect(await b.db.selectFrom('captchas').select('id').execute()).toEqual([{ id: 'x' }]);
  });

  it('migrating an up-to-date store again changes nothing', async () => {
    const [a, b] = await twoHandles();
    await migrateToLatest(a.db);
    await expect(migrateToLatest(b.db)).resolves.toBeUndefined();
    const applied = await sql<{ n: number }>`select count(*) as n from kysely_migration`.execute(a.db);
    expect(Number(applied.rows[0]?.n)).toBe(25);
  });

  it("makes today's upstream list and template the first provider, and disabled upstreams a paused one", async () => {
    const [a] = await twoHandles();
    const to = await new Migrator({ db: a.db, provider }).migrateTo('2026-12-18-webhooks');
    expect(to.error).toBeUndefined();
    const now = '2026-11-29T00:00:00.000Z';
    const up = (host: string, enabled: number) => ({ protocol: 'http' as const, host, port: 8000, username: null, password_sealed: null, country: 'US', state: null, city: null, enabled, remark: null, created_at: now, updated_at: now });
    await a.db.insertInto('upstreams').values([up('a.test', 1), up('b.test', 1), up('off.test', 0)]).execute();
    const template = 'http://u-{session}:secret@gate.test:7000';
    await a.db.insertInto('settings').values({ key: 'gateway.supply', value: JSON.stringify({ template, directEgress: true }), updated_at: now }).execute();

    await migrateToLatest(a.db);
    const providers = await a.db.selectFrom('providers').select(['id', 'name', 'template', 'status', 'priority', 'weight', 'regions']).orderBy('id').execute();
    expect(providers.map(({ id: _id, ...p }) => p)).toEqual([
      { name: 'Default', template, status: 'enabled', priority: 1, weight: 100, regions: '' },
      { name: 'Default (disabled)', template: '', status: 'paused', priority: 1, weight: 100, regions: '' },
    ]);
    const hosts = await a.db.selectFrom('upstreams').select(['host', 'provider_id']).orderBy('host').execute();
    expect(hosts).toEqual([
      { host: 'a.test', provider_id: providers[0]!.id },
      { host: 'b.test', provider_id: providers[0]!.id },
      { host: 'off.test', provider_id: providers[1]!.id },
    ]);
    const settings = await a.db.selectFrom('settings').select('value').where('key', '=', 'gateway.supply').executeTakeFirstOrThrow();
    expect(JSON.parse(settings.value)).toEqual({ directEgress: true });
  });
});

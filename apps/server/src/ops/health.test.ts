import { mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { HOST, closedPort, startSilentServer } from '../../test/gateway-fixtures';
import { until } from '../../test/store-gateway-kit';
import { DIALECTS, type TestApp, createPgDatabase, createTestApp } from '../../test/test-app';
import { type Db, type Dialect, openDatabase } from '../db/database';
import { migrateToLatest } from '../db/migrate';
import { RedisCutoffBus } from '../lib/redis-cutoff-bus';
import { createMetrics } from './metrics';
import { type OpsListener, startOpsListener } from './ops-listener';
import { Readiness } from './readiness';

const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
const quiet = { warn: () => undefined, info: () => undefined, error: () => undefined };
const READY = { status: 'ready', checks: { store: { ok: true }, migrations: { ok: true } } };

async function get(base: string, url: string, method = 'GET') {
  const res = await fetch(base + url, { method });
  const text = await res.text();
  return { status: res.status, type: res.headers.get('content-type'), cache: res.headers.get('cache-control'), text, body: text.startsWith('{') ? JSON.parse(text) : null };
}

/** An empty store of the dialect, not migrated: what a process sees before its migrations ran. */
async function emptyStore(dialect: Dialect): Promise<{ db: Db; close(): Promise<void> }> {
  const dir = mkdtempSync(path.join(tmpdir(), 'resi-health-'));
  const pg = dialect === 'postgres' ? await createPgDatabase() : null;
  const db = openDatabase({ databaseUrl: pg?.url, dataDir: dir });
  return {
    db,
    async close() {
      await db.db.destroy();
      await pg?.drop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

describe.each(DIALECTS)('health checks on %s', (dialect) => {
  const cleanups: Array<() => Promise<unknown>> = [];
  afterEach(async () => {
    for (const c of cleanups.splice(0).reverse()) await c();
  });

  async function api(): Promise<{ t: TestApp; base: string }> {
    const t = await createTestApp(dialect);
    cleanups.push(() => t.close());
    await t.app.listen({ port: 0, host: HOST });
    return { t, base: `http://${HOST}:${(t.app.server.address() as AddressInfo).port}` };
  }

  async function listener(o: { readiness?: Readiness; metrics?: boolean }): Promise<{ ops: OpsListener; base: string }> {
    const ops = await startOpsListener({ host: HOST, port: 0, readiness: o.readiness, metrics: o.metrics ? createMetrics().registry : undefined, log: quiet });
    cleanups.push(() => ops.close());
    return { ops, base: `http://${HOST}:${ops.port}` };
  }

  it('answers /healthz and /readyz on the API port, and never /metrics there', async () => {
    const { base } = await api();
    const health = await get(base, '/healthz');
    expect(health).toMatchObject({ status: 200, type: 'application/json; charset=utf-8', cache: 'no-store', body: { status: 'ok' } });
    const ready = await get(base, '/readyz');
    expect(ready).toMatchObject({ status: 200, cache: 'no-store' });
    expect(ready.body).toEqual(READY);
    expect((await get(base, '/metrics')).status).toBe(404);
    expect((await get(base, '/readyz', 'HEAD')).status).toBe(200);
  });

  it('answers /readyz 503 naming the store once the store is closed, while /healthz still answers', async () => {
    const { t, base } = await api();
    expect((await get(base, '/readyz')).status).toBe(200);
    await t.db.db.destroy();
    const ready = await get(base, '/readyz');
    expect(ready.status).toBe(503);
    expect(ready.body).toEqual({ status: 'not ready', checks: { store: { ok: false, error: 'unreachable' }, migrations: { ok: true } } });
    // A word, not the driver's message: nothing of the store's address or files.
    expect(ready.text).not.toContain(t.config.DATABASE_URL ?? t.config.dataDir);
    expect((await get(base, '/healthz')).status).toBe(200);
  });

  it('is not ready on the health listener until every migration has run', async () => {
    const store = await emptyStore(dialect);
    cleanups.push(() => store.close());
    const { base } = await listener({ readiness: new Readiness({ db: store.db.db, log: quiet }) });
    const before = await get(base, '/readyz');
    expect(before.status).toBe(503);
    expect(before.body.checks.store).toEqual({ ok: true });
    expect(before.body.checks.migrations).toMatchObject({ ok: false, error: 'pending' });
    expect(before.body.checks.migrations.pending).toEqual(expect.arrayContaining(['2026-11-22-accounts', '2026-11-28-export-ticket-session']));
    await migrateToLatest(store.db.db);
    const after = await get(base, '/readyz');
    expect(after).toMatchObject({ status: 200, cache: 'no-store' });
    expect(after.body).toEqual(READY);
    expect((await get(base, '/healthz')).body).toEqual({ status: 'ok' });
  });
});

describe('health listener', () => {
  const cleanups: Array<() => Promise<unknown>> = [];
  afterEach(async () => {
    for (const c of cleanups.splice(0).reverse()) await c();
  });

  async function migratedStore(): Promise<Db> {
    const dir = mkdtempSync(path.join(tmpdir(), 'resi-health-'));
    const db = openDatabase({ dataDir: dir });
    cleanups.push(async () => {
      await db.db.destroy();
      rmSync(dir, { recursive: true, force: true });
    });
    await migrateToLatest(db.db);
    return db;
  }

  async function serve(o: Parameters<typeof startOpsListener>[0]) {
    const ops = await startOpsListener(o);
    cleanups.push(() => ops.close());
    return `http://${HOST}:${ops.port}`;
  }

  async function redisBus(url: string) {
    const bus = new RedisCutoffBus({ url, prefix: `resi-health-${process.pid}:`, log: quiet });
    cleanups.push(() => bus.close());
    return bus;
  }

  it('checks Redis with PING when it is configured', async () => {
    const db = await migratedStore();
    const bus = await redisBus(REDIS_URL);
    const readiness = new Readiness({ db: db.db, redis: bus, log: quiet });
    const base = await serve({ host: HOST, port: 0, readiness, log: quiet });
    // The bus connects on its own; ready as soon as it has.
    const ready = await until(async () => {
      const r = await get(base, '/readyz');
      return r.status === 200 && r;
    }, 10_000, '/readyz to answer 200');
    expect(ready.body).toEqual({ status: 'ready', checks: { store: { ok: true }, migrations: { ok: true }, redis: { ok: true } } });
  });

  it('answers 503 while Redis is unreachable, and logs why once', async () => {
    const db = await migratedStore();
    const bus = await redisBus(`redis://127.0.0.1:${await closedPort()}`);
    const warnings: object[] = [];
    const readiness = new Readiness({ db: db.db, redis: bus, log: { ...quiet, warn: (o) => warnings.push(o) } });
    const base = await serve({ host: HOST, port: 0, readiness, log: quiet });
    for (let i = 0; i < 2; i++) {
      const ready = await get(base, '/readyz');
      expect(ready.status).toBe(503);
      expect(ready.body).toEqual({ status: 'not ready', checks: { store: { ok: true }, migrations: { ok: true }, redis: { ok: false, error: 'unreachable' } } });
    }
    expect(warnings).toEqual([expect.objectContaining({ check: 'redis' })]);
  });

  it('gives up on a store that does not answer, within the check deadline', async () => {
    const silent = await startSilentServer();
    const db = openDatabase({ databaseUrl: `postgres://nobody@${HOST}:${silent.port}/resi`, dataDir: tmpdir() });
    cleanups.push(async () => {
      // The silent server's close ends the pending connection attempt, so the pool can end.
      await silent.close();
      await db.db.destroy();
    });
    const base = await serve({ host: HOST, port: 0, readiness: new Readiness({ db: db.db, timeoutMs: 300, log: quiet }), log: quiet });
    const t0 = Date.now();
    const ready = await get(base, '/readyz');
    expect(Date.now() - t0).toBeLessThan(2000);
    expect(ready.status).toBe(503);
    expect(ready.body.checks.store).toEqual({ ok: false, error: 'timeout' });
  });

  it('serves only what it was given: health without metrics, metrics without health', async () => {
    const db = await migratedStore();
    const health = await serve({ host: HOST, port: 0, readiness: new Readiness({ db: db.db, log: quiet }), log: quiet });
    expect((await get(health, '/metrics')).status).toBe(404);
    expect((await get(health, '/healthz', 'POST')).status).toBe(405);
    expect((await get(health, '/other')).status).toBe(404);
    const metrics = await serve({ host: HOST, port: 0, metrics: createMetrics().registry, log: quiet });
    expect((await get(metrics, '/healthz')).status).toBe(404);
    expect((await get(metrics, '/readyz')).status).toBe(404);
    const scrape = await get(metrics, '/metrics');
    expect(scrape.status).toBe(200);
    expect(scrape.type).toMatch(/^text\/plain; version=0\.0\.4/);
    expect(scrape.text).toMatch(/^process_open_fds \d+$/m);
  });
});

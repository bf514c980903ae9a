/**
 * Account cache refresh (part of `npm run bench`; also `tsx bench/account-cache.bench.ts [--quick]`).
 * 100,000 customers, each with a proxy account and a grant, in SQLite (and in PostgreSQL when
 * TEST_DATABASE_URL is set): how long the gateway's cache takes to read everything (what every gateway
 * process did every 2 s before change versions), and to refresh incrementally with no change and after
 * a usage flush that touched 100 accounts. Prints medians and the rows each read.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { type RawBuilder, sql } from 'kysely';
import pg from 'pg';
import { openDatabase } from '../apps/server/src/db/database';
import { migrateToLatest } from '../apps/server/src/db/migrate';
import { DAY, iso, systemClock } from '../apps/server/src/lib/clock';
import { SEAL_LABELS, SealedBox } from '../apps/server/src/lib/sealed-box';
import { AccountCache, type RefreshSummary } from '../apps/server/src/gateway/store/account-cache';
import { AccountCacheRepository } from '../apps/server/src/gateway/store/account-cache-repository';
import { UsageRepository } from '../apps/server/src/gateway/store/usage-repository';

const ACCOUNTS = 100_000;
const CHANGED = 100;
const SECRET = 'bench-secret-bench-secret-bench-secret';
const GATEWAY = 'bench-gateway';

/** One kind of refresh on one store: medians of wall time and of this process's CPU time, and what it read. */
interface Measured {
  ms: number;
  cpuMs: number;
  read: RefreshSummary;
}

interface Figures {
  store: string;
  seedS: number;
  full: Measured;
  none: Measured;
  changed: Measured;
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)]!;
}

/** Runs of one kind of refresh; the CPU time is the gateway process's own (with SQLite, the queries' too). */
class Runs {
  private readonly ms: number[] = [];
  private readonly cpu: number[] = [];
  private read?: RefreshSummary;

  async time(f: () => Promise<RefreshSummary>): Promise<void> {
    const cpu0 = process.cpuUsage();
    const t0 = performance.now();
    this.read = await f();
    this.ms.push(performance.now() - t0);
    const cpu = process.cpuUsage(cpu0);
    this.cpu.push((cpu.user + cpu.system) / 1000);
  }

  get result(): Measured {
    return { ms: median(this.ms), cpuMs: median(this.cpu), read: this.read! };
  }
}

async function measure(store: string, open: () => { db: ReturnType<typeof openDatabase>['db']; close(): Promise<void> }, runs: number): Promise<Figures> {
  const { db, close } = open();
  try {
    await migrateToLatest(db);
    const box = new SealedBox(SECRET, SEAL_LABELS.proxyPassword);
    const sealed = box.seal('BenchPass1');
    const now = new Date();
    const created = iso(now);
    const expires = iso(new Date(now.getTime() + 30 * DAY));
    const t0 = performance.now();
    // Ids 1…N in all three tables, one statement each (the same SQL on both stores); the triggers stamp them.
    await db.transaction().execute(async (trx) => {
      const upTo = (insert: RawBuilder<unknown>) => sql`with recursive n(i) as (select 1 union all select i + 1 from n where i < ${sql.lit(ACCOUNTS)}) ${insert}`.execute(trx);
      await upTo(sql`insert into users (id, email, password_hash, role, status, invite_code, lang, created_at) select i, 'bench' || i || '@example.com', 'x', 'customer', 'active', 'B' || i, 'en', ${created} from n`);
      await upTo(sql`insert into proxy_accounts (id, user_id, username, password_sealed, status, created_at, updated_at) select i, i, 'bench' || i, ${sealed}, 'active', ${created}, ${created} from n`);
      await upTo(sql`insert into traffic_grants (id, user_id, bytes, expires_at, created_at) select i, i, ${1024 ** 3}, ${expires}, ${created} from n`);
    });
    // A store of this size has its statistics (PostgreSQL's autovacuum); without them its planner scans whole tables.
    if (store === 'PostgreSQL') await sql`analyze`.execute(db);
    const seedS = (performance.now() - t0) / 1000;

    const cache = new AccountCache(new AccountCacheRepository(db), systemClock, box, { gatewayId: GATEWAY });
    const usage = new UsageRepository(db, systemClock);
    await cache.reload(); // opens every password once; later whole reads reuse them, as a running gateway does
    const full = new Runs();
    const none = new Runs();
    const changed = new Runs();
    let seq = 0;
    const hour = iso(new Date(Math.floor(now.getTime() / 3_600_000) * 3_600_000));
    for (let i = 0; i < runs; i++) {
      await full.time(() => cache.reload());
      await none.time(() => cache.refresh());
      // One usage flush that billed 100 accounts spread over the table: their rows and their owners' grants change.
      const picked = Array.from({ length: CHANGED }, (_, k) => 1 + ((i * 7919 + k * Math.floor(ACCOUNTS / CHANGED)) % ACCOUNTS));
      await usage.flush(GATEWAY, ++seq, picked.map((id) => ({ accountId: id, userId: id, hour, country: 'US', bytesUp: 100, bytesDown: 1000 })));
      await changed.time(() => cache.refresh());
    }
    return { store, seedS, full: full.result, none: none.result, changed: changed.result };
  } finally {
    await close();
  }
}

export async function accountCacheBench(quick: boolean): Promise<void> {
  const runs = quick ? 3 : 11;
  const results: Figures[] = [];
  process.stderr.write(`… account cache refresh, ${ACCOUNTS.toLocaleString('en-US')} accounts, SQLite\n`);
  const dir = mkdtempSync(join(tmpdir(), 'resi-bench-cache-'));
  results.push(
    await measure('SQLite', () => {
      const { db } = openDatabase({ dataDir: dir });
      return { db, close: async () => { await db.destroy(); rmSync(dir, { recursive: true, force: true }); } };
    }, runs),
  );
  const url = process.env.TEST_DATABASE_URL;
  if (url) {
    process.stderr.write(`… account cache refresh, ${ACCOUNTS.toLocaleString('en-US')} accounts, PostgreSQL\n`);
    const name = `resi_bench_${process.pid}`;
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${name}`);
    const target = new URL(url);
    target.pathname = `/${name}`;
    try {
      results.push(
        await measure('PostgreSQL', () => {
          const { db } = openDatabase({ databaseUrl: target.toString(), dataDir: tmpdir() });
          return { db, close: () => db.destroy() };
        }, runs),
      );
    } finally {
      await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await admin.end();
    }
  }
  print(results, runs);
}

function print(results: Figures[], runs: number): void {
  const n = (x: number) => x.toLocaleString('en-US');
  const ms = (x: number) => (x < 10 ? x.toFixed(2) : x < 100 ? x.toFixed(1) : n(Math.round(x)));
  const kinds: [string, (f: Figures) => Measured][] = [
    ['whole read (before: every 2 s; now every 5 min)', (f) => f.full],
    ['what changed: nothing', (f) => f.none],
    [`what changed: a flush billed ${CHANGED} accounts`, (f) => f.changed],
  ];
  const header = ['refresh', 'read: users / accounts / balances', ...results.flatMap((r) => [`${r.store} ms`, `${r.store} CPU ms`])];
  const lines = kinds.map(([name, pick]) => {
    const reads = [...new Set(results.map((r) => { const x = pick(r).read; return `${n(x.users)} / ${n(x.accounts)} / ${n(x.balances)}`; }))];
    return [name, reads.join(' | '), ...results.flatMap((r) => [ms(pick(r).ms), ms(pick(r).cpuMs)])];
  });
  const widths = header.map((h, i) => Math.max(h.length, ...lines.map((l) => l[i]!.length)));
  const line = (cells: string[]) => `| ${cells.map((c, i) => (i < 2 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join(' | ')} |`;
  console.log(`\nAccount cache refresh, ${n(ACCOUNTS)} accounts (gateway/store/account-cache.ts; medians of ${runs} runs)`);
  console.log(`\n${line(header)}\n|${widths.map((w, i) => (i < 2 ? `${'-'.repeat(w + 1)}-` : `${'-'.repeat(w + 1)}:`)).join('|')}|`);
  for (const l of lines) console.log(line(l));
  const ratio = results.map((r) => `${r.store} ${(r.full.ms / r.changed.ms).toFixed(0)}× the time, ${(r.full.cpuMs / r.changed.cpuMs).toFixed(0)}× the CPU`).join('; ');
  console.log(`\nA whole read against a refresh after ${CHANGED} changes: ${ratio}. CPU is this process's own (with SQLite, the queries' too).`);
  const skipped = process.env.TEST_DATABASE_URL ? '' : ' PostgreSQL skipped: TEST_DATABASE_URL is not set.';
  console.log(`Seeding took ${results.map((r) => `${r.seedS.toFixed(1)} s (${r.store})`).join(', ')}.${skipped}`);
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  await accountCacheBench(process.argv.includes('--quick'));
  process.exit(0);
}

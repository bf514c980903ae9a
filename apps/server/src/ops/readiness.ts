import type { Kysely } from 'kysely';
import { pendingMigrations } from '../db/migrate';
import type { Database } from '../db/schema';
import { pingStore } from '../db/store-health';

/** One check's outcome. `error` is a word, never the driver's message (which may name hosts or users). */
export type Check = { ok: true } | { ok: false; error: 'unreachable' | 'timeout' | 'pending'; pending?: string[] };

export interface ReadinessReport {
  ready: boolean;
  checks: { store: Check; migrations: Check; redis?: Check };
}

const OK: Check = { ok: true };

export interface ReadinessOptions {
  db: Kysely<Database>;
  /** REDIS_URL's connection in this process (the cut-off bus); unset: no Redis check. */
  redis?: { ping(): Promise<unknown> };
  /** Each check gives up after this: a probe must answer even when the store hangs. */
  timeoutMs?: number;
  log: { warn(obj: object, msg: string): void; info(obj: object, msg: string): void };
}

/**
 * Whether this process can serve (`GET /readyz`): the store answers a query, it holds every migration
 * this build knows, and Redis answers PING when REDIS_URL is set. The reasons a check failed go to the
 * log, once per change, not to the answer: a probe's answer is public.
 */
export class Readiness {
  /** Migrations are never undone under a running process: once at latest, the check needs no query. */
  private migrated = false;
  private failing = new Set<string>();

  constructor(private readonly o: ReadinessOptions) {}

  async check(): Promise<ReadinessReport> {
    const { db, redis } = this.o;
    const [store, migrations, redisCheck] = await Promise.all([
      this.run('store', async () => {
        await pingStore(db);
        return OK;
      }),
      this.run('migrations', async () => {
        if (this.migrated) return OK;
        const pending = await pendingMigrations(db);
        if (pending.length > 0) return { ok: false, error: 'pending', pending };
        this.migrated = true;
        return OK;
      }),
      redis
        ? this.run('redis', async () => {
            await redis.ping();
            return OK;
          })
        : undefined,
    ]);
    const checks = { store, migrations, ...(redisCheck ? { redis: redisCheck } : {}) };
    return { ready: Object.values(checks).every((c) => c.ok), checks };
  }

  private async run(name: string, probe: () => Promise<Check>): Promise<Check> {
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<Check>((resolve) => (timer = setTimeout(() => resolve({ ok: false, error: 'timeout' }), this.o.timeoutMs ?? 2000)));
    let check: Check;
    try {
      check = await Promise.race([probe(), late]);
      if (!check.ok) this.failed(name, check.error);
    } catch (err) {
      check = { ok: false, error: 'unreachable' };
      this.failed(name, err instanceof Error ? err.message : String(err));
    } finally {
      clearTimeout(timer);
    }
    if (check.ok && this.failing.delete(name)) this.o.log.info({ check: name }, 'readiness: check passing again');
    return check;
  }

  /** Logged once per outage: probes come every few seconds. */
  private failed(name: string, reason: string): void {
    if (this.failing.has(name)) return;
    this.failing.add(name);
    this.o.log.warn({ check: name, reason }, 'readiness: check failing; /readyz answers 503');
  }
}

/** The body of `/readyz`, the same on the API and on the health listener. */
export function readinessBody(report: ReadinessReport): { status: 'ready' | 'not ready'; checks: ReadinessReport['checks'] } {
  return { status: report.ready ? 'ready' : 'not ready', checks: report.checks };
}

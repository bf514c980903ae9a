import type { ProviderBody, ProviderDto, ProviderHealth } from '@resi/contract';
import { type Kysely, PostgresAdapter, type Selectable, type Transaction } from 'kysely';
import type { Database, ProviderTable } from '../../db/schema';
import { type Clock, iso } from '../../lib/clock';
import type { SealedBox } from '../../lib/sealed-box';
import { addHistograms, emptyHistogram, percentile } from '../../shared/latency-histogram';
import { AppError } from '../../shared/errors';
import { upstreamUrl } from '../../shared/upstream-url';
import { type UpstreamColumns, maskedUpstreamUrl } from './provider-upstreams';
import { maskTemplate } from './supply-template';

type Row = Selectable<ProviderTable>;
type Trx = Transaction<Database>;

/** A gateway window older than this no longer counts in the admin's success rate and latency. */
export const WINDOW_FRESH_MS = 120_000;
/** Inserts per statement: SQLite allows 32,766 bound values, an upstream row takes 11. */
const INSERT_CHUNK = 500;

/** A provider as the gateway's exit chooser takes it: enabled, with its upstreams' URLs in clear. */
export interface SupplyProvider {
  id: number;
  template: string;
  regions: string[];
  priority: number;
  weight: number;
  upstreams: { id: string; url: string; country: string | null; state: string | null; city: string | null }[];
}

const DEFAULT_HEALTH: ProviderHealth = {
  state: 'up',
  successRate: null,
  connectP50Ms: null,
  connectP95Ms: null,
  attempts: 0,
  lastProbeAt: null,
  probeLatencyMs: null,
  probeCountry: null,
  countryMismatch: false,
  lastError: null,
  since: null,
};

/** Upstream providers (docs/gateway.md#providers): their rows, upstreams, costs, and what the admin sees of their health and usage. */
export class ProviderRepository {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly clock: Clock,
    /** Upstream passwords are sealed (SEAL_LABELS.upstreamPassword). */
    private readonly box: SealedBox,
    /** The shop currency, for answers: a provider without a cost row costs 0 in it. Unset: the gateway's reader. */
    private readonly currency = '',
  ) {}

  async list(): Promise<ProviderDto[]> {
    const rows = await this.db.selectFrom('providers').selectAll().where('deleted_at', 'is', null).orderBy('priority').orderBy('id').execute();
    return this.toDtos(rows);
  }

  /**
   * Holds the provider's row for the rest of the transaction (PostgreSQL; SQLite runs one write transaction at a
   * time): a save reads the stored upstreams (for masked passwords) and the audit's "before" after any other
   * save of the provider has committed, not before.
   */
  async lock(id: number, trx: Trx): Promise<void> {
    if (trx.getExecutor().adapter instanceof PostgresAdapter) await trx.selectFrom('providers').select('id').where('id', '=', id).forUpdate().execute();
  }

  async find(id: number, trx?: Trx): Promise<Row | undefined> {
    return (trx ?? this.db).selectFrom('providers').selectAll().where('id', '=', id).where('deleted_at', 'is', null).executeTakeFirst();
  }

  async dto(id: number, trx?: Trx): Promise<ProviderDto> {
    const row = await this.find(id, trx);
    if (!row) throw new AppError('NOT_FOUND');
    const [dto] = await this.toDtos([row], trx);
    return dto!;
  }

  /** The provider's upstreams with their passwords in clear (for saving masked URLs back). */
  async storedUpstreams(providerId: number, trx?: Trx): Promise<UpstreamColumns[]> {
    const rows = await (trx ?? this.db).selectFrom('upstreams').selectAll().where('provider_id', '=', providerId).orderBy('id').execute();
    return rows.map((r) => ({
      protocol: r.protocol,
      host: r.host,
      port: r.port,
      username: r.username,
      password: r.password_sealed ? this.box.open(r.password_sealed) : null,
      country: r.country,
      state: r.state,
      city: r.city,
    }));
  }

  async create(body: ProviderBody, upstreams: UpstreamColumns[], trx: Trx): Promise<number> {
    const now = iso(this.clock.now());
    const row = await trx
      .insertInto('providers')
      .values({ ...this.columns(body), created_at: now, updated_at: now })
      .returning('id')
      .executeTakeFirstOrThrow();
    await this.replaceUpstreams(row.id, upstreams, trx);
    await this.saveCost(row.id, body.costPerGb, trx);
    return row.id;
  }

  async update(id: number, body: ProviderBody, upstreams: UpstreamColumns[], trx: Trx): Promise<void> {
    const done = await trx
      .updateTable('providers')
      .set({ ...this.columns(body), updated_at: iso(this.clock.now()) })
      .where('id', '=', id)
      .where('deleted_at', 'is', null)
      .executeTakeFirst();
    if (Number(done.numUpdatedRows) === 0) throw new AppError('NOT_FOUND');
    await this.replaceUpstreams(id, upstreams, trx);
    await this.saveCost(id, body.costPerGb, trx);
  }

  /** Stamps the provider deleted and drops its upstreams: its usage and costs stay for past margins. */
  async remove(id: number, trx: Trx): Promise<void> {
    const done = await trx.updateTable('providers').set({ deleted_at: iso(this.clock.now()) }).where('id', '=', id).where('deleted_at', 'is', null).executeTakeFirst();
    if (Number(done.numUpdatedRows) === 0) throw new AppError('NOT_FOUND');
    await trx.deleteFrom('upstreams').where('provider_id', '=', id).execute();
  }

  /** Enabled providers with their exits, for the gateway. */
  async supply(): Promise<SupplyProvider[]> {
    const providers = await this.db.selectFrom('providers').selectAll().where('deleted_at', 'is', null).where('status', '=', 'enabled').orderBy('id').execute();
    if (providers.length === 0) return [];
    const rows = await this.db
      .selectFrom('upstreams')
      .selectAll()
      .where(
        'provider_id',
        'in',
        providers.map((p) => p.id),
      )
      .orderBy('id')
      .execute();
    return providers.map((p) => ({
      id: p.id,
      template: p.template,
      regions: regionsOf(p.regions),
      priority: p.priority,
      weight: p.weight,
      upstreams: rows
        .filter((r) => r.provider_id === p.id)
        .map((r) => ({
          id: `upstream-${r.id}`,
          url: upstreamUrl({ ...r, password: r.password_sealed ? this.box.open(r.password_sealed) : null }),
          country: r.country,
          state: r.state,
          city: r.city,
        })),
    }));
  }

  private async replaceUpstreams(providerId: number, upstreams: UpstreamColumns[], trx: Trx): Promise<void> {
    await trx.deleteFrom('upstreams').where('provider_id', '=', providerId).execute();
    const now = iso(this.clock.now());
    const values = upstreams.map((u) => ({
      provider_id: providerId,
      protocol: u.protocol,
      host: u.host,
      port: u.port,
      username: u.username,
      password_sealed: u.password ? this.box.seal(u.password) : null,
      country: u.country,
      state: u.state,
      city: u.city,
      enabled: 1,
      remark: null,
      created_at: now,
      updated_at: now,
    }));
    for (let i = 0; i < values.length; i += INSERT_CHUNK) await trx.insertInto('upstreams').values(values.slice(i, i + INSERT_CHUNK)).execute();
  }

  /** A cost from a date replaces the one from the same date; costs from other dates stay (old usage keeps its cost). */
  private async saveCost(providerId: number, cost: ProviderBody['costPerGb'], trx: Trx): Promise<void> {
    const created_at = iso(this.clock.now());
    await trx
      .insertInto('provider_costs')
      .values({ provider_id: providerId, amount: cost.amount, currency: cost.currency, from_day: cost.from, created_at })
      .onConflict((oc) => oc.columns(['provider_id', 'from_day']).doUpdateSet({ amount: cost.amount, currency: cost.currency, created_at }))
      .execute();
  }

  private columns(b: ProviderBody) {
    return {
      name: b.name,
      template: b.template,
      regions: [...new Set(b.regions)].join(','),
      priority: b.priority,
      weight: b.weight,
      monthly_quota_gb: b.monthlyQuotaGb,
      status: b.status,
    };
  }

  private async toDtos(rows: Row[], trx?: Trx): Promise<ProviderDto[]> {
    if (rows.length === 0) return [];
    const db = trx ?? this.db;
    const ids = rows.map((r) => r.id);
    const now = this.clock.now();
    const today = iso(now).slice(0, 10);
    const monthStart = `${today.slice(0, 7)}-01`;
    const freshSince = iso(new Date(now.getTime() - WINDOW_FRESH_MS));
    const [upstreams, costs, health, windows, usage] = await Promise.all([
      db.selectFrom('upstreams').selectAll().where('provider_id', 'in', ids).orderBy('id').execute(),
      db.selectFrom('provider_costs').selectAll().where('provider_id', 'in', ids).orderBy('from_day').execute(),
      db.selectFrom('provider_health').selectAll().where('provider_id', 'in', ids).execute(),
      db.selectFrom('provider_windows').selectAll().where('provider_id', 'in', ids).where('updated_at', '>=', freshSince).execute(),
      db
        .selectFrom('provider_usage_daily')
        .select(['provider_id', 'day', 'bytes'])
        .where('provider_id', 'in', ids)
        .where('day', '>=', monthStart)
        .execute(),
    ]);
    return rows.map((r) => {
      const own = costs.filter((c) => c.provider_id === r.id).map((c) => ({ amount: Number(c.amount), currency: c.currency, from: c.from_day }));
      const h = health.find((x) => x.provider_id === r.id);
      const w = windows.filter((x) => x.provider_id === r.id);
      const attempts = w.reduce((n, x) => n + x.attempts, 0);
      const failures = w.reduce((n, x) => n + x.failures, 0);
      const latencies = w.reduce((acc, x) => addHistograms(acc, JSON.parse(x.histogram) as number[]), emptyHistogram());
      const used = usage.filter((u) => u.provider_id === r.id);
      return {
        id: r.id,
        name: r.name,
        template: maskTemplate(r.template),
        upstreams: upstreams
          .filter((u) => u.provider_id === r.id)
          .map((u) => ({ url: maskedUpstreamUrl({ ...u, password: u.password_sealed ? 'x' : null }), country: u.country, state: u.state, city: u.city })),
        regions: regionsOf(r.regions),
        priority: r.priority,
        weight: r.weight,
        costPerGb: own.at(-1) ?? { amount: 0, currency: this.currency, from: r.created_at.slice(0, 10) },
        costs: own,
        monthlyQuotaGb: r.monthly_quota_gb === null ? null : Number(r.monthly_quota_gb),
        status: r.status,
        health: {
          ...DEFAULT_HEALTH,
          ...(h && {
            state: h.state,
            since: h.since,
            lastError: h.last_error,
            lastProbeAt: h.last_probe_at,
            probeLatencyMs: h.probe_ms,
            probeCountry: h.probe_country,
            countryMismatch: Boolean(h.country_mismatch),
          }),
          attempts,
          successRate: attempts > 0 ? (attempts - failures) / attempts : null,
          connectP50Ms: percentile(latencies, 0.5),
          connectP95Ms: percentile(latencies, 0.95),
        },
        usage: {
          bytesToday: used.filter((u) => u.day === today).reduce((n, u) => n + Number(u.bytes), 0),
          bytesMonth: used.reduce((n, u) => n + Number(u.bytes), 0),
        },
      };
    });
  }
}

function regionsOf(stored: string): string[] {
  return stored === '' ? [] : stored.split(',');
}

import type { Kysely, Selectable, Transaction } from 'kysely';
import type { Database, ProviderHealthTable } from '../../../db/schema';

export type HealthRow = Selectable<ProviderHealthTable>;

/** What one active probe found: written on its provider's row whatever the state does. */
export interface ProbeFacts {
  last_probe_at: string;
  probe_ms: number | null;
  probe_country: string | null;
  country_mismatch: number;
  last_error: string | null;
}

/** A provider as its admin notices need it: its health (null: no row, so up and never mailed) and quota. */
export interface NoticeSubject {
  id: number;
  name: string;
  monthlyQuotaGb: number | null;
  state: HealthRow['state'] | null;
  notifiedState: HealthRow['notified_state'] | null;
  lastError: string | null;
  quotaNotifiedMonth: string | null;
}

type Trx = Transaction<Database>;

/**
 * `provider_health` as the active prober and the admin notices write it (docs/gateway.md#active-probes). The
 * gateways trip the breaker on the same rows; every state change here is a conditional update on the state
 * (and `since`) that was read, so a trip that lands meanwhile wins, and only the probe's own columns are written
 * then. A missing row means up.
 */
export class ProviderHealthRepository {
  constructor(private readonly db: Kysely<Database>) {}

  async rows(trx?: Trx): Promise<HealthRow[]> {
    return (trx ?? this.db).selectFrom('provider_health').selectAll().execute();
  }

  /** A down provider passed its retry: up again, unless a gateway tripped it anew since it was read. */
  async putUp(providerId: number, downSince: string, at: string, facts: ProbeFacts | null): Promise<boolean> {
    const done = await this.db
      .updateTable('provider_health')
      .set({ ...facts, state: 'up', since: at, retry_at: null })
      .where('provider_id', '=', providerId)
      .where('state', '=', 'down')
      .where('since', '=', downSince)
      .executeTakeFirst();
    return Number(done.numUpdatedRows) === 1;
  }

  /** A down provider failed its retry: the next one at `retryAt`, unless its row changed since it was read. */
  async postpone(providerId: number, downSince: string, retryAt: string, facts: ProbeFacts): Promise<boolean> {
    const done = await this.db
      .updateTable('provider_health')
      .set({ ...facts, retry_at: retryAt })
      .where('provider_id', '=', providerId)
      .where('state', '=', 'down')
      .where('since', '=', downSince)
      .executeTakeFirst();
    return Number(done.numUpdatedRows) === 1;
  }

  /**
   * A provider that is not down failed its probe, or a gateway's breaker tripped on it (then only `last_error` is
   * known): down now, retried at `retryAt`; false when it was down already (its first `since` and retry stay).
   */
  async takeDown(providerId: number, at: string, retryAt: string, facts: Pick<ProbeFacts, 'last_error'> & Partial<ProbeFacts>): Promise<boolean> {
    const down = { ...facts, state: 'down' as const, since: at, retry_at: retryAt };
    const rows = await this.db
      .insertInto('provider_health')
      .values({ provider_id: providerId, ...down })
      .onConflict((oc) => oc.column('provider_id').doUpdateSet(down).where('provider_health.state', '<>', 'down'))
      .returning('provider_id')
      .execute();
    return rows.length === 1;
  }

  /**
   * Only the probe's columns; a provider without a row gets one, up since now. A down row keeps its
   * `last_error`: it says why the provider is out (a gateway's trip that landed after the row was read).
   */
  async recordProbe(providerId: number, at: string, facts: ProbeFacts): Promise<void> {
    await this.db
      .insertInto('provider_health')
      .values({ provider_id: providerId, state: 'up', since: at, ...facts })
      .onConflict((oc) =>
        oc.column('provider_id').doUpdateSet((eb) => ({
          ...facts,
          last_error: eb.case().when('provider_health.state', '=', 'down').then(eb.ref('provider_health.last_error')).else(eb.ref('excluded.last_error')).end(),
        })),
      )
      .execute();
  }

  /** Enabled providers (a paused one carries nothing: its news waits until it is enabled), with what their notices need. */
  async noticeSubjects(): Promise<NoticeSubject[]> {
    const rows = await this.db
      .selectFrom('providers')
      .leftJoin('provider_health', 'provider_health.provider_id', 'providers.id')
      .select([
        'providers.id',
        'providers.name',
        'providers.monthly_quota_gb',
        'provider_health.state',
        'provider_health.notified_state',
        'provider_health.last_error',
        'provider_health.quota_notified_month',
      ])
      .where('providers.deleted_at', 'is', null)
      .where('providers.status', '=', 'enabled')
      .orderBy('providers.id')
      .execute();
    return rows.map((r) => ({
      id: r.id,
      name: r.name,
      monthlyQuotaGb: r.monthly_quota_gb === null ? null : Number(r.monthly_quota_gb),
      state: r.state,
      notifiedState: r.notified_state,
      lastError: r.last_error,
      quotaNotifiedMonth: r.quota_notified_month,
    }));
  }

  /** Claims the mail about `state`: true for exactly one caller while the row is still in that state. */
  async markNotified(providerId: number, from: HealthRow['notified_state'], state: 'up' | 'down'): Promise<boolean> {
    const done = await this.db
      .updateTable('provider_health')
      .set({ notified_state: state })
      .where('provider_id', '=', providerId)
      .where('state', '=', state)
      .where('notified_state', '=', from)
      .executeTakeFirst();
    return Number(done.numUpdatedRows) === 1;
  }

  /** Claims the month's quota mail: true for exactly one caller per provider and month. */
  async markQuotaNotified(providerId: number, month: string, at: string): Promise<boolean> {
    const rows = await this.db
      .insertInto('provider_health')
      .values({ provider_id: providerId, state: 'up', since: at, quota_notified_month: month })
      .onConflict((oc) =>
        oc
          .column('provider_id')
          .doUpdateSet({ quota_notified_month: month })
          .where((eb) => eb.or([eb('provider_health.quota_notified_month', 'is', null), eb('provider_health.quota_notified_month', '<>', month)])),
      )
      .returning('provider_id')
      .execute();
    return rows.length === 1;
  }

  /** Bytes each provider carried from `fromDay` (UTC date) on. */
  async bytesSince(providerIds: number[], fromDay: string): Promise<Map<number, number>> {
    if (providerIds.length === 0) return new Map();
    const rows = await this.db
      .selectFrom('provider_usage_daily')
      .select(['provider_id', (eb) => eb.fn.sum<number | string>('bytes').as('bytes')])
      .where('provider_id', 'in', providerIds)
      .where('day', '>=', fromDay)
      .groupBy('provider_id')
      .execute();
    return new Map(rows.map((r) => [r.provider_id, Number(r.bytes)]));
  }

  /** Who gets the providers' mails: admins whose account is active. */
  async activeAdmins(): Promise<{ email: string; lang: string }[]> {
    return this.db.selectFrom('users').select(['email', 'lang']).where('role', '=', 'admin').where('status', '=', 'active').orderBy('id').execute();
  }
}

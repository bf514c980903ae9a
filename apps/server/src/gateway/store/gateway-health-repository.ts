import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema';
import { type Clock, iso } from '../../lib/clock';
import { ProviderHealthRepository } from '../../modules/providers/probe/provider-health-repository';
import type { HealthWindow, SharedHealth } from '../provider-health';

/** Where a gateway process shares what it sees of the providers (docs/gateway.md#health-and-failover). */
export class GatewayHealthRepository {
  private readonly rows: ProviderHealthRepository;

  constructor(
    private readonly db: Kysely<Database>,
    private readonly clock: Clock,
  ) {
    this.rows = new ProviderHealthRepository(db);
  }

  /** Every provider's shared state (no row: up). */
  async states(): Promise<SharedHealth[]> {
    const rows = await this.db.selectFrom('provider_health').select(['provider_id', 'state', 'since']).execute();
    return rows.map((r) => ({ providerId: r.provider_id, state: r.state, since: Date.parse(r.since) }));
  }

  /**
   * A breaker tripped here: the provider is down for every process until the prober puts it back after
   * `pauseMs` (the same take-down a failed probe makes). A provider already down keeps its first `since` and retry time.
   */
  async markDown(providerId: number, error: string | null, pauseMs: number): Promise<void> {
    const now = this.clock.now();
    await this.rows.takeDown(providerId, iso(now), iso(new Date(now.getTime() + pauseMs)), { last_error: error });
  }

  /** This process's windows, one row per provider and gateway (the admin sums the fresh ones). */
  async writeWindows(gatewayId: string, windows: HealthWindow[]): Promise<void> {
    const now = this.clock.now();
    const updated_at = iso(now);
    // Rows of processes gone for a day: each process writes under a new id.
    await this.db.deleteFrom('provider_windows').where('updated_at', '<', iso(new Date(now.getTime() - 86_400_000))).execute();
    for (const w of windows) {
      const values = { attempts: w.attempts, failures: w.failures, histogram: JSON.stringify(w.latencies), updated_at };
      await this.db
        .insertInto('provider_windows')
        .values({ provider_id: w.providerId, gateway_id: gatewayId, ...values })
        .onConflict((oc) => oc.columns(['provider_id', 'gateway_id']).doUpdateSet(values))
        .execute();
    }
  }
}

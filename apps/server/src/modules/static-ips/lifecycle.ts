import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema';
import { type Clock, DAY, addMs, iso } from '../../lib/clock';
import type { Job } from '../../lib/jobs/job-scheduler';
import type { StaticAllocationRepository } from './allocation-repository';
import type { StaticInventoryRepository } from './inventory-repository';

export interface LifecycleSettings {
  graceDays: number;
  cooldownDays: number;
}

/**
 * The static IPs' clock (docs/business-rules.md#static-residential-ips): dead orders' reservations back
 * to free; expired allocations into grace; grace over → released, their rows into cooldown; cooldown over
 * → free. Every step is a conditional update on the current status, so a second run, or two runners,
 * change nothing twice; the scheduler's lease makes it one runner across API processes anyway.
 */
export class StaticLifecycle {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly clock: Clock,
    private readonly inventory: StaticInventoryRepository,
    private readonly allocations: StaticAllocationRepository,
    private readonly settings: LifecycleSettings,
  ) {}

  job(): Job {
    return { name: 'static_lifecycle', everyMs: 30_000, run: () => this.run() };
  }

  async run(): Promise<{ reservations: number; grace: number; released: number; freed: number }> {
    const now = this.clock.now();
    const at = iso(now);
    const reservations = await this.inventory.releaseDeadReservations(at);
    return this.db.transaction().execute(async (trx) => {
      const grace = await this.allocations.enterGrace(at, trx);
      await this.inventory.setStatus(
        grace.map((a) => a.inventory_id),
        ['allocated'],
        'grace',
        { now: at },
        trx,
      );
      const released = await this.allocations.releaseAfterGrace(iso(addMs(now, -this.settings.graceDays * DAY)), at, trx);
      await this.inventory.setStatus(
        released.map((a) => a.inventory_id),
        ['allocated', 'grace'],
        'cooldown',
        { cooldown_until: iso(addMs(now, this.settings.cooldownDays * DAY)), now: at },
        trx,
      );
      for (const a of released) await this.inventory.addEvent(a.inventory_id, { event: 'released', user_id: a.user_id, allocation_id: a.id, reason: 'expired' }, trx);
      const freed = await this.inventory.endCooldowns(at, trx);
      for (const id of freed) await this.inventory.addEvent(id, { event: 'cooled' }, trx);
      return { reservations, grace: grace.length, released: released.length, freed: freed.length };
    });
  }
}

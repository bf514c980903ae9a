import type { DistributionSettings } from '@resi/contract';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema';
import { type Clock, iso } from '../../lib/clock';
import type { AuditLogRepository } from '../audit/audit-log-repository';
import type { DistributionRepository } from './distribution-repository';

/** The admin's distribution settings: saved with their audit row in one transaction. */
export class DistributionSettingsService {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly clock: Clock,
    private readonly distribution: DistributionRepository,
    private readonly audit: AuditLogRepository,
  ) {}

  async save(body: DistributionSettings, actor: { id: number; ip: string | null }): Promise<DistributionSettings> {
    const settings = { ...body, payoutMethods: [...new Set(body.payoutMethods)] };
    await this.db.transaction().execute(async (trx) => {
      const before = await this.distribution.settings(trx);
      await this.distribution.saveSettings(settings, iso(this.clock.now()), trx);
      await this.audit.write({ actorId: actor.id, action: 'distribution.settings', target: 'settings:distribution', before, after: settings, ip: actor.ip }, trx);
    });
    return settings;
  }
}

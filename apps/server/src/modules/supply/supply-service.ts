import type { SupplySettings, UpstreamBody, UpstreamDto } from '@resi/contract';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema';
import type { AuditLogRepository } from '../audit/audit-log-repository';
import type { SupplyRepository } from './supply-repository';
import { redactTemplate } from './supply-template';

type Actor = { id: number; ip: string | null };

/**
 * Admin changes to the supply, each with its audit row in the same transaction. Audit rows carry the
 * masked views only, never an upstream or template password.
 */
export class SupplyService {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly supply: SupplyRepository,
    private readonly audit: AuditLogRepository,
  ) {}

  list(): Promise<UpstreamDto[]> {
    return this.supply.list();
  }

  create(body: UpstreamBody, actor: Actor): Promise<UpstreamDto> {
    return this.db.transaction().execute(async (trx) => {
      const row = await this.supply.create(body, trx);
      await this.audit.write({ actorId: actor.id, action: 'upstream.create', target: `upstream:${row.id}`, after: row, ip: actor.ip }, trx);
      return row;
    });
  }

  update(id: number, body: UpstreamBody, actor: Actor): Promise<UpstreamDto> {
    return this.db.transaction().execute(async (trx) => {
      const before = await this.supply.find(id, trx);
      const row = await this.supply.update(id, body, trx);
      await this.audit.write(
        { actorId: actor.id, action: 'upstream.update', target: `upstream:${row.id}`, before: before ? this.supply.toDto(before) : undefined, after: row, ip: actor.ip },
        trx,
      );
      return row;
    });
  }

  async remove(id: number, actor: Actor): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      const gone = await this.supply.remove(id, trx);
      await this.audit.write({ actorId: actor.id, action: 'upstream.delete', target: `upstream:${gone.id}`, before: this.supply.toDto(gone), ip: actor.ip }, trx);
    });
  }

  settings(): Promise<SupplySettings> {
    return this.supply.settings();
  }

  async saveSettings(next: SupplySettings, before: SupplySettings, actor: Actor): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      await this.supply.saveSettings(next, trx);
      await this.audit.write({ actorId: actor.id, action: 'supply.save', target: 'supply', before: redactTemplate(before), after: redactTemplate(next), ip: actor.ip }, trx);
    });
  }
}

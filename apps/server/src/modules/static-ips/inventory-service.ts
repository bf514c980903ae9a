import type { StaticImportBody, StaticInventoryDto, StaticInventoryUpdate } from '@resi/contract';
import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../../db/schema';
import type { CutoffBus } from '../../lib/cutoff-bus';
import { AppError } from '../../shared/errors';
import type { AuditLogRepository } from '../audit/audit-log-repository';
import type { CatalogueRepository } from '../catalogue/catalogue-repository';
import { type LineProblem, parseInventoryLines } from './inventory-lines';
import type { AllocationRow, StaticAllocationRepository } from './allocation-repository';
import type { StaticInventoryRepository } from './inventory-repository';
import type { UpstreamHostCheck } from './upstream-host-check';

type Actor = { id: number; ip: string | null };

/** A line's outcome; `problem` is a key the route turns into the caller's language. */
export interface ImportOutcome {
  line: number;
  status: 'created' | 'duplicate' | 'invalid';
  ip: string | null;
  id: number | null;
  problem: LineProblem | null;
}

/**
 * The operator's side of the static inventory: import, edit, retire, each with its audit row and the
 * row's own history in one transaction (docs/business-rules.md#static-residential-ips).
 */
export class StaticInventoryService {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly inventory: StaticInventoryRepository,
    private readonly allocations: StaticAllocationRepository,
    private readonly catalogue: CatalogueRepository,
    private readonly audit: AuditLogRepository,
    private readonly hosts: UpstreamHostCheck,
    private readonly cutoffs?: Pick<CutoffBus, 'publish'>,
  ) {}

  /**
   * Good lines are taken and bad ones reported: one bad line never blocks the others. No lines: nothing
   * written. An upstream that is not a public address is a bad line; names are resolved before the
   * transaction, so no lookup holds the store. (An edit cannot change the upstream: nothing to check there.)
   */
  async import(body: StaticImportBody, actor: Actor): Promise<ImportOutcome[]> {
    const parsed = parseInventoryLines(body.lines);
    if (parsed.length === 0) return [];
    const blocked = await this.hosts.problems(parsed.flatMap((p) => ('problem' in p ? [] : [p.upstream.host])));
    return this.db.transaction().execute(async (trx) => {
      await this.assertReferences(body.regionId, body.businessIds, trx);
      const seen = new Set<string>();
      const out: ImportOutcome[] = [];
      for (const p of parsed) {
        if ('problem' in p || blocked.has(p.upstream.host)) {
          out.push({ line: p.line, status: 'invalid', ip: null, id: null, problem: 'problem' in p ? p.problem : blocked.get(p.upstream.host)! });
          continue;
        }
        const id = seen.has(p.exitIp)
          ? null
          : await this.inventory.insert(
              { exitIp: p.exitIp, regionId: body.regionId, isp: body.isp || null, costMonth: body.costPerMonth ?? 0, upstream: p.upstream, businessIds: body.businessIds, actorId: actor.id },
              trx,
            );
        seen.add(p.exitIp);
        out.push({ line: p.line, status: id === null ? 'duplicate' : 'created', ip: p.exitIp, id, problem: null });
      }
      const count = (s: ImportOutcome['status']) => out.filter((o) => o.status === s).length;
      await this.audit.write(
        {
          actorId: actor.id,
          action: 'static.import',
          target: `static-region:${body.regionId}`,
          after: { businessIds: body.businessIds, isp: body.isp ?? null, costPerMonth: body.costPerMonth ?? 0, created: out.filter((o) => o.status === 'created').map((o) => o.ip), duplicate: count('duplicate'), invalid: count('invalid') },
          ip: actor.ip,
        },
        trx,
      );
      return out;
    });
  }

  update(id: number, body: StaticInventoryUpdate, actor: Actor): Promise<StaticInventoryDto> {
    return this.db.transaction().execute(async (trx) => {
      const before = await this.inventory.find(id, trx);
      if (!before) throw new AppError('NOT_FOUND');
      await this.assertReferences(body.regionId, body.businessIds, trx);
      const row = (await this.inventory.update(id, { region_id: body.regionId, isp: body.isp, remark: body.remark, cost_month: body.costPerMonth }, trx))!;
      await this.inventory.setBusinesses(id, body.businessIds, trx);
      await this.inventory.addEvent(id, { event: 'edited', actor_id: actor.id }, trx);
      const [beforeDto] = await this.inventory.toDtos([before], trx);
      const [after] = await this.inventory.toDtos([row], trx);
      await this.audit.write({ actorId: actor.id, action: 'static.update', target: `static-ip:${id}`, before: beforeDto, after, ip: actor.ip }, trx);
      return after!;
    });
  }

  async retire(id: number, reason: string | null, actor: Actor): Promise<StaticInventoryDto> {
    let held: AllocationRow | undefined;
    const dto = await this.db.transaction().execute(async (trx) => {
      const row = await this.inventory.retire(id, trx);
      if (!row) throw new AppError('NOT_FOUND');
      // The customer holding it loses it now: the allocation is released, the gateway refuses its login.
      held = await this.allocations.releaseOnRow(id, row.updated_at, trx);
      await this.inventory.addEvent(id, { event: 'retired', actor_id: actor.id, user_id: held?.user_id ?? null, allocation_id: held?.id ?? null, reason }, trx);
      const [after] = await this.inventory.toDtos([row], trx);
      await this.audit.write({ actorId: actor.id, action: 'static.retire', target: `static-ip:${id}`, after, ip: actor.ip }, trx);
      return after!;
    });
    // The gateways cut its login now rather than at their next read (docs/gateway.md#cut-off-timing).
    if (held) await this.cutoffs?.publish({ userId: held.user_id, accountId: held.account_id });
    return dto;
  }

  /** An unknown static region or business line is a 404, as for static prices. */
  private async assertReferences(regionId: number, businessIds: number[], trx: Transaction<Database>): Promise<void> {
    if (!(await this.catalogue.exists('static_regions', regionId, trx))) throw new AppError('NOT_FOUND');
    for (const b of new Set(businessIds)) if (!(await this.catalogue.exists('businesses', b, trx))) throw new AppError('NOT_FOUND');
  }
}

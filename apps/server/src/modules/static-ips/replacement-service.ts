import type { StaticProxyDto, StaticReplaceBody } from '@resi/contract';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema';
import { type Clock, DAY, addMs, iso } from '../../lib/clock';
import type { CutoffBus } from '../../lib/cutoff-bus';
import { AppError } from '../../shared/errors';
import type { WebhookEmitter } from '../webhooks/webhook-service';
import type { StaticAllocationRepository } from './allocation-repository';
import type { StaticInventoryRepository } from './inventory-repository';
import type { StaticProxyViews } from './static-proxy-views';

/**
 * A customer's replacement of a static IP (docs/business-rules.md#static-residential-ips): another
 * takeable row of the same region and line takes its place, same login and expiry; the old row rests in
 * cooldown with the reason in its history.
 */
export class StaticReplacementService {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly clock: Clock,
    private readonly inventory: StaticInventoryRepository,
    private readonly allocations: StaticAllocationRepository,
    private readonly views: StaticProxyViews,
    private readonly cooldownDays: number,
    private readonly cutoffs?: Pick<CutoffBus, 'publish'>,
    /** `static.replaced` webhooks, queued in the replacing transaction. */
    private readonly webhooks?: Pick<WebhookEmitter, 'emit'>,
  ) {}

  async replace(userId: number, id: number, body: StaticReplaceBody): Promise<StaticProxyDto> {
    const now = this.clock.now();
    const at = iso(now);
    const accountId = await this.db.transaction().execute(async (trx) => {
      const [a] = await this.allocations.byIds([id], trx);
      // Another customer's IP is "not found", never "forbidden" (docs/api.md#errors).
      if (!a || a.user_id !== userId) throw new AppError('NOT_FOUND');
      if (a.status === 'released') throw new AppError('STATIC_RELEASED');
      if (a.status === 'grace' || a.expires_at <= at) throw new AppError('STATIC_EXPIRED');
      const [view] = await this.views.toDtos([a], trx);
      if (view!.replacementsLeft <= 0) throw new AppError('STATIC_REPLACEMENTS_USED');
      const next = await this.inventory.takeOne({ regionId: a.region_id, businessId: a.business_id, except: a.inventory_id, now: at }, trx);
      if (next === null) throw new AppError('OUT_OF_STOCK');
      // Two replacements of one IP at once: the second finds it moved already and changes nothing.
      if (!(await this.allocations.moveTo(a.id, a.inventory_id, next, at, trx))) throw new AppError('NOT_FOUND');
      await this.inventory.setStatus([a.inventory_id], ['allocated'], 'cooldown', { cooldown_until: iso(addMs(now, this.cooldownDays * DAY)), now: at }, trx);
      const reason = body.note ? `${body.reason}: ${body.note}` : body.reason;
      await this.inventory.addEvent(a.inventory_id, { event: 'replaced', user_id: userId, allocation_id: a.id, reason }, trx);
      await this.inventory.addEvent(next, { event: 'allocated', user_id: userId, allocation_id: a.id, reason: 'replacement' }, trx);
      if (this.webhooks) {
        const [moved] = await this.allocations.byIds([a.id], trx);
        await this.webhooks.emit(userId, 'static.replaced', { id: a.id, ip: moved!.exit_ip, previousIp: a.exit_ip, reason: body.reason, expiresAt: a.expires_at }, trx);
      }
      return a.account_id;
    });
    // Connections through the old exit end now, on every gateway; new ones take the new exit.
    await this.cutoffs?.publish({ userId, accountId, closeLive: true });
    const [after] = await this.views.toDtos(await this.allocations.byIds([id]));
    return after!;
  }
}

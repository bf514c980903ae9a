import type { ProviderBody, ProviderDto, SupplySettings } from '@resi/contract';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema';
import { AppError } from '../../shared/errors';
import { assertTemplate } from '../../shared/provider-template';
import type { AuditLogRepository } from '../audit/audit-log-repository';
import type { ProviderRepository } from './provider-repository';
import { keepMaskedPasswords, upstreamColumns } from './provider-upstreams';
import { keepMaskedPassword } from './supply-template';
import type { SupplySettingsRepository } from './supply-settings-repository';

type Actor = { id: number; ip: string | null };
type Translate = (key: string, params?: Record<string, string | number>) => string;

/**
 * Admin changes to the providers and supply settings, each with its audit row in the same transaction.
 * Audit rows carry the masked views only, never an upstream or template password.
 */
export class ProviderService {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly providers: ProviderRepository,
    private readonly settings: SupplySettingsRepository,
    private readonly audit: AuditLogRepository,
    private readonly currency: string,
  ) {}

  list(): Promise<ProviderDto[]> {
    return this.providers.list();
  }

  create(body: ProviderBody, actor: Actor, t: Translate): Promise<ProviderDto> {
    this.check(body, t);
    return this.db.transaction().execute(async (trx) => {
      const upstreams = keepMaskedPasswords(body.upstreams.map(upstreamColumns), [], (line) => t('validation.maskedPassword', { line }));
      const id = await this.providers.create(body, upstreams, trx);
      const after = await this.providers.dto(id, trx);
      await this.audit.write({ actorId: actor.id, action: 'provider.create', target: `provider:${id}`, after: audited(after), ip: actor.ip }, trx);
      return after;
    });
  }

  update(id: number, body: ProviderBody, actor: Actor, t: Translate): Promise<ProviderDto> {
    this.check(body, t);
    return this.db.transaction().execute(async (trx) => {
      await this.providers.lock(id, trx);
      const stored = await this.providers.find(id, trx);
      if (!stored) throw new AppError('NOT_FOUND');
      const before = await this.providers.dto(id, trx);
      const upstreams = keepMaskedPasswords(body.upstreams.map(upstreamColumns), await this.providers.storedUpstreams(id, trx), (line) => t('validation.maskedPassword', { line }));
      const template = keepMaskedPassword(body.template, stored.template);
      await this.providers.update(id, { ...body, template }, upstreams, trx);
      const after = await this.providers.dto(id, trx);
      await this.audit.write({ actorId: actor.id, action: 'provider.update', target: `provider:${id}`, before: audited(before), after: audited(after), ip: actor.ip }, trx);
      return after;
    });
  }

  async remove(id: number, actor: Actor): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      await this.providers.lock(id, trx);
      const before = await this.providers.dto(id, trx);
      await this.providers.remove(id, trx);
      await this.audit.write({ actorId: actor.id, action: 'provider.delete', target: `provider:${id}`, before: audited(before), ip: actor.ip }, trx);
    });
  }

  supplySettings(): Promise<SupplySettings> {
    return this.settings.get();
  }

  async saveSupplySettings(next: SupplySettings, actor: Actor): Promise<void> {
    const before = await this.settings.get();
    await this.db.transaction().execute(async (trx) => {
      await this.settings.save(next, trx);
      await this.audit.write({ actorId: actor.id, action: 'supply.save', target: 'supply', before, after: next, ip: actor.ip }, trx);
    });
  }

  /** What the contract cannot see: the template's shape, and costs in the shop currency (margins add them up). */
  private check(body: ProviderBody, t: Translate): void {
    if (body.template) {
      try {
        assertTemplate(body.template.replace(/:\*\*\*\*@/, ':x@'));
      } catch {
        throw new AppError('VALIDATION_FAILED', { detail: t('validation.template') });
      }
    }
    if (body.costPerGb.currency !== this.currency) throw new AppError('VALIDATION_FAILED', { detail: t('validation.costCurrency', { currency: this.currency }) });
  }
}

/** The audit row keeps the provider's settings, not its moving health and usage figures. */
function audited({ health: _health, usage: _usage, ...rest }: ProviderDto) {
  return rest;
}

import { PAY_METHODS, PAY_METHOD_FIELDS, type PayConfigBody, type PayConfigDto, type PayMethod } from '@resi/contract';
import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../../db/schema';
import { type Clock, iso } from '../../lib/clock';
import { SEAL_LABELS, SealedBox, mask } from '../../lib/sealed-box';
import type { MethodConfig, PaymentProvider, PaymentSettings } from '../../payments/provider';
import { AppError } from '../../shared/errors';
import type { AuditLogRepository } from '../audit/audit-log-repository';
import { PayConfigRepository } from './pay-config-repository';

export interface PayConfigLog {
  warn(obj: object, msg: string): void;
}

/** Payment settings (docs/business-rules.md#payment-methods): plain settings as JSON, secrets sealed with a key derived from APP_SECRET. */
export class PayConfigService implements PaymentSettings {
  private readonly box: SealedBox;
  private readonly configs: PayConfigRepository;
  private readonly warned = new Set<PayMethod>();

  constructor(
    private readonly db: Kysely<Database>,
    private readonly clock: Clock,
    private readonly audit: AuditLogRepository,
    private readonly providers: Map<PayMethod, PaymentProvider>,
    appSecret: string,
    private readonly production: boolean,
    private readonly log?: PayConfigLog,
  ) {
    this.box = new SealedBox(appSecret, SEAL_LABELS.payConfig);
    this.configs = new PayConfigRepository(db);
  }

  async get(method: PayMethod, trx?: Transaction<Database>): Promise<MethodConfig> {
    return (await this.read(method, trx)).config;
  }

  /**
   * The stored row with its secrets opened. Secrets sealed under another APP_SECRET cannot be opened:
   * they count as unset (the method is not configured, so not offered, and nothing answers 500) and the
   * admin is told to enter them again.
   */
  private async read(method: PayMethod, trx?: Transaction<Database>): Promise<{ config: MethodConfig; needsReentry: boolean }> {
    const row = await this.configs.find(method, trx);
    if (!row) return { config: { enabled: false, settings: {}, secrets: {} }, needsReentry: false };
    const settings = JSON.parse(row.settings) as Record<string, string>;
    let secrets: Record<string, string> = {};
    let needsReentry = false;
    if (row.secrets) {
      try {
        secrets = JSON.parse(this.box.open(row.secrets)) as Record<string, string>;
      } catch {
        needsReentry = true;
        // Once per method and process: every buy page asks for the methods. Never the sealed value.
        if (!this.warned.has(method)) {
          this.warned.add(method);
          this.log?.warn({ method }, 'stored payment secrets cannot be decrypted (APP_SECRET changed?): the method is off until they are entered again');
        }
      }
    }
    return { config: { enabled: Boolean(row.enabled), settings, secrets }, needsReentry };
  }

  /** What the buy page offers: enabled, allowed here and configured well enough to take money. */
  async enabledMethods(): Promise<PayMethod[]> {
    const offered = await Promise.all(PAY_METHODS.map(async (m) => ((await this.offered(m)) ? m : null)));
    return offered.filter((m): m is PayMethod => m !== null);
  }

  /** The method's settings when customers may pay with it now, else null (one read of one method). */
  async offered(method: PayMethod): Promise<MethodConfig | null> {
    const p = this.providers.get(method);
    if (!p || !p.available(this.production)) return null;
    const c = await this.get(method);
    return c.enabled && p.configured(c) ? c : null;
  }

  async list(): Promise<PayConfigDto[]> {
    return Promise.all(
      PAY_METHODS.map(async (m) => {
        const { config, needsReentry } = await this.read(m);
        return this.toDto(m, config, needsReentry);
      }),
    );
  }

  async save(body: PayConfigBody, actor: { id: number; ip: string | null }): Promise<PayConfigDto> {
    const fields = PAY_METHOD_FIELDS[body.method];
    const unknown = [
      ...Object.keys(body.settings).filter((k) => !(fields.settings as readonly string[]).includes(k)),
      ...Object.keys(body.secrets).filter((k) => !(fields.secrets as readonly string[]).includes(k)),
    ];
    if (unknown.length) throw new AppError('VALIDATION_FAILED', { detail: unknown.join(', ') });
    const provider = this.providers.get(body.method);
    if (body.enabled && provider && !provider.available(this.production)) throw new AppError('PAY_METHOD_UNAVAILABLE');

    return this.db.transaction().execute(async (trx) => {
      const before = await this.get(body.method, trx);
      const settings = { ...before.settings, ...trimAll(body.settings) };
      const secrets = { ...before.secrets };
      for (const [k, v] of Object.entries(body.secrets)) {
        if (v.trim() === '') delete secrets[k];
        else secrets[k] = v.trim();
      }
      const next: MethodConfig = { enabled: body.enabled, settings, secrets };
      if (next.enabled && provider && !provider.configured(next)) throw new AppError('PAY_METHOD_INCOMPLETE');
      const row = {
        enabled: next.enabled ? 1 : 0,
        settings: JSON.stringify(settings),
        secrets: Object.keys(secrets).length ? this.box.seal(JSON.stringify(secrets)) : null,
        updated_at: iso(this.clock.now()),
      };
      await this.configs.save(body.method, row, trx);
      // The audit row never holds a secret, only whether each was set.
      await this.audit.write(
        {
          actorId: actor.id,
          action: 'pay-config.save',
          target: `pay-config:${body.method}`,
          before: { ...this.toDto(body.method, before), available: undefined, needsReentry: undefined },
          after: { ...this.toDto(body.method, next), available: undefined, needsReentry: undefined },
          ip: actor.ip,
        },
        trx,
      );
      return this.toDto(body.method, next);
    });
  }

  private toDto(method: PayMethod, c: MethodConfig, needsReentry = false): PayConfigDto {
    const secrets: Record<string, string | null> = {};
    for (const k of PAY_METHOD_FIELDS[method].secrets) secrets[k] = c.secrets[k] ? mask(c.secrets[k]) : null;
    return {
      method,
      enabled: c.enabled,
      settings: c.settings,
      secrets,
      available: this.providers.get(method)?.available(this.production) ?? false,
      needsReentry,
    };
  }
}


const trimAll = (o: Record<string, string>) => Object.fromEntries(Object.entries(o).map(([k, v]) => [k, v.trim()]));

import type { AllowlistEntryDto, AllowlistQuery, CreateAllowlistBody } from '@resi/contract';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema';
import { parseAllowlistAddress } from '../../lib/allowlist-address';
import { type Clock, iso } from '../../lib/clock';
import type { CutoffBus } from '../../lib/cutoff-bus';
import { isPublicUnicast } from '../../lib/public-address';
import { AppError } from '../../shared/errors';
import { type AllowlistEntryRow, AllowlistRepository, type AllowlistTarget } from './allowlist-repository';

export interface AllowlistOptions {
  /** Entries per proxy account or static IP (`ALLOWLIST_MAX`). */
  max: number;
  /** Private, loopback and other non-public addresses may be listed (`ALLOWLIST_PRIVATE_ADDRESSES`). */
  allowPrivate: boolean;
}

/**
 * A customer's allowlist (docs/gateway.md#allowlist): addresses that use a proxy account or a static IP
 * without its password. An address belongs to one account across the installation, so the gateway
 * always knows whom to bill; a refusal never says who holds it.
 */
export class AllowlistService {
  private readonly entries: AllowlistRepository;

  constructor(
    db: Kysely<Database>,
    private readonly clock: Clock,
    private readonly o: AllowlistOptions,
    /** The gateways re-read the owner at once: a new entry works as soon as the API answers. */
    private readonly cutoffs?: Pick<CutoffBus, 'publish'>,
  ) {
    this.entries = new AllowlistRepository(db);
  }

  async list(userId: number, q: AllowlistQuery): Promise<AllowlistEntryDto[]> {
    const target = q.proxyAccountId !== undefined || q.staticProxyId !== undefined ? await this.target(userId, q) : undefined;
    const rows = await this.entries.list(userId, { accountId: target?.accountId });
    return rows.map(toDto);
  }

  async create(userId: number, body: CreateAllowlistBody, callerIp: string): Promise<AllowlistEntryDto> {
    const target = await this.target(userId, body);
    const range = parseAllowlistAddress(body.address ?? callerIp);
    if (!range || (!this.o.allowPrivate && !isPublicUnicast(range.address.split('/')[0]!))) throw new AppError('ALLOWLIST_ADDRESS');
    const added = await this.entries.add(
      { userId, accountId: target.accountId, address: range.address, start: range.start, end: range.end, label: body.label ?? null, now: iso(this.clock.now()) },
      this.o.max,
    );
    if ('refused' in added) throw added.refused === 'TAKEN' ? new AppError('ALLOWLIST_TAKEN') : new AppError('ALLOWLIST_FULL', { max: this.o.max });
    await this.cutoffs?.publish({ userId });
    return toDto(added.entry);
  }

  /** The gateways re-read the owner and cut the connections the address carried (docs/gateway.md#allowlist). */
  async remove(userId: number, id: number): Promise<void> {
    const removed = await this.entries.remove(userId, id);
    if (!removed) throw new AppError('NOT_FOUND');
    await this.cutoffs?.publish({ userId });
  }

  private async target(userId: number, q: { proxyAccountId?: number; staticProxyId?: number }): Promise<AllowlistTarget> {
    const found = q.proxyAccountId !== undefined ? await this.entries.rotatingTarget(userId, q.proxyAccountId) : await this.entries.staticTarget(userId, q.staticProxyId!);
    if (!found) throw new AppError('NOT_FOUND');
    return found;
  }
}

function toDto(r: AllowlistEntryRow): AllowlistEntryDto {
  return {
    id: r.id,
    address: r.address,
    label: r.label,
    proxyAccountId: r.static_proxy_id === null ? r.account_id : null,
    staticProxyId: r.static_proxy_id,
    createdAt: r.created_at,
  };
}

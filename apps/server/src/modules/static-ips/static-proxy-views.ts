import type { StaticProxyDto, StaticProxyQuery } from '@resi/contract';
import type { Transaction } from 'kysely';
import type { Database } from '../../db/schema';
import { type Clock, DAY, addMs, iso } from '../../lib/clock';
import type { SealedBox } from '../../lib/sealed-box';
import { AppError } from '../../shared/errors';
import type { AllocationView, StaticAllocationRepository } from './allocation-repository';

export interface GatewayEndpoint {
  host: string;
  httpPort: number;
  socksPort: number;
}

/** Replacements are counted over this window (docs/business-rules.md#static-residential-ips). */
export const REPLACEMENT_WINDOW_DAYS = 30;

/** Midnight UTC of `now`'s day, as usage hours are stored: the start of "today" for a static IP's traffic. */
const utcDayStart = (now: Date) => `${iso(now).slice(0, 10)}T00:00:00.000Z`;
/** The first hour of the 30 days a static IP's traffic is shown for: today and the 29 days before it. */
const usageWindowStart = (now: Date) => utcDayStart(addMs(now, -(STATIC_USAGE_DAYS - 1) * DAY));

/** Days of traffic shown per static IP (`bytes30Days`). */
export const STATIC_USAGE_DAYS = 30;

/** A customer's static IPs as the API answers them: with the login's password and the replacements left. */
export class StaticProxyViews {
  constructor(
    private readonly allocations: StaticAllocationRepository,
    private readonly passwords: SealedBox,
    private readonly clock: Clock,
    private readonly endpoint: GatewayEndpoint,
    private readonly replacementsPerWindow: number,
  ) {}

  /** The owner's allocation with its new note; another customer's id is "not found" (docs/api.md#errors). */
  async setRemark(userId: number, id: number, remark: string | null): Promise<StaticProxyDto> {
    if (!(await this.allocations.setRemark(userId, id, remark || null, iso(this.clock.now())))) throw new AppError('NOT_FOUND');
    const [dto] = await this.toDtos(await this.allocations.byIds([id]));
    return dto!;
  }

  async page(userId: number, q: StaticProxyQuery): Promise<{ items: StaticProxyDto[]; total: number }> {
    const expiresBy = q.expiringDays === undefined ? undefined : iso(addMs(this.clock.now(), q.expiringDays * DAY));
    const { items, total } = await this.allocations.pageForUser(userId, q, expiresBy);
    return { items: await this.toDtos(items), total };
  }

  /** Pass the transaction when inside one: SQLite has one connection, which the transaction holds. */
  async toDtos(rows: AllocationView[], trx?: Transaction<Database>): Promise<StaticProxyDto[]> {
    const now = iso(this.clock.now());
    const since = iso(addMs(this.clock.now(), -REPLACEMENT_WINDOW_DAYS * DAY));
    const used = await this.allocations.replacementsSince(
      rows.map((r) => r.id),
      since,
      trx,
    );
    const traffic = await this.allocations.usageSince(
      rows.map((r) => r.account_id),
      usageWindowStart(this.clock.now()),
      utcDayStart(this.clock.now()),
      trx,
    );
    return rows.map((r) => ({
      id: r.id,
      ip: r.exit_ip,
      regionId: r.region_id,
      regionName: { en: r.region_en, 'zh-cn': r.region_zh_cn, zh: r.region_zh },
      country: r.country,
      city: r.city,
      businessId: r.business_id,
      businessName: { en: r.business_en, 'zh-cn': r.business_zh_cn, zh: r.business_zh },
      isp: r.isp,
      username: r.username,
      password: this.passwords.open(r.password_sealed),
      ...this.endpoint,
      startsAt: r.starts_at,
      expiresAt: r.expires_at,
      // The gateway refuses an IP the moment it expires; the job marks it grace up to 30 s later.
      status: r.status === 'active' && r.expires_at <= now ? 'grace' : r.status,
      remark: r.remark,
      replacementsLeft: Math.max(0, this.replacementsPerWindow - (used.get(r.id) ?? 0)),
      bytesToday: traffic.get(r.account_id)?.today ?? 0,
      bytes30Days: traffic.get(r.account_id)?.total ?? 0,
    }));
  }
}

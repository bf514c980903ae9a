import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema';
import { usageBucket } from './traffic-repository';
import type { UsageRange } from './usage-range';

export interface UsageRecordFilter extends UsageRange {
  userId: number;
  granularity: 'day' | 'hour';
  accountId?: number;
  /** Upper case, as the gateway stores it. */
  country?: string;
}

export interface UsageRecordRow {
  bucket: string;
  account_id: number;
  username: string | null;
  deleted_at: string | null;
  /** The exit IP of the static allocation whose login this account is; null for a rotating account. */
  static_ip: string | null;
  country: string | null;
  bytes_up: number;
  bytes_down: number;
}

/** Usage Record: one user's hourly usage rows grouped by (bucket, proxy account, country). */
export class UsageRecordRepository {
  constructor(private readonly db: Kysely<Database>) {}

  /** One page, newest bucket first, with how many groups match and the bytes of all of them. */
  async page(f: UsageRecordFilter, page: number, pageSize: number): Promise<{ items: UsageRecordRow[]; total: number; bytesUp: number; bytesDown: number }> {
    const [items, count, totals] = await Promise.all([
      this.ordered(f)
        .limit(pageSize)
        .offset((page - 1) * pageSize)
        .execute(),
      this.db
        .selectFrom(this.grouped(f).as('g'))
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow(),
      this.filtered(f)
        .select((eb) => [eb.fn.sum<number>('u.bytes_up').as('up'), eb.fn.sum<number>('u.bytes_down').as('down')])
        .executeTakeFirstOrThrow(),
    ]);
    return { items: items.map(numbers), total: Number(count.n), bytesUp: Number(totals.up ?? 0), bytesDown: Number(totals.down ?? 0) };
  }

  /** Every matching group, for the CSV export. */
  async all(f: UsageRecordFilter): Promise<UsageRecordRow[]> {
    return (await this.ordered(f).execute()).map(numbers);
  }

  private filtered(f: UsageRecordFilter) {
    // Hours are stored as ISO strings of one shape, so text comparison is time order on both dialects.
    let q = this.db
      .selectFrom('usage_hourly as u')
      .where('u.user_id', '=', f.userId)
      .where('u.hour', '>=', `${f.from}T00:00:00.000Z`)
      .where('u.hour', '<=', `${f.to}T23:59:59.999Z`);
    if (f.accountId !== undefined) q = q.where('u.account_id', '=', f.accountId);
    if (f.country !== undefined) q = q.where('u.country', '=', f.country);
    return q;
  }

  private grouped(f: UsageRecordFilter) {
    const bucket = usageBucket(f.granularity);
    // A left join: usage must never vanish from the record because its account row is missing.
    return this.filtered(f)
      .leftJoin('proxy_accounts as a', 'a.id', 'u.account_id')
      // One allocation per static login (a unique key), so these joins never multiply a row.
      .leftJoin('static_allocations as sa', 'sa.account_id', 'u.account_id')
      .leftJoin('static_inventory as si', 'si.id', 'sa.inventory_id')
      .select([
        bucket.as('bucket'),
        'u.account_id',
        'a.username',
        'a.deleted_at',
        'si.exit_ip as static_ip',
        'u.country',
        (eb) => eb.fn.sum<number>('u.bytes_up').as('bytes_up'),
        (eb) => eb.fn.sum<number>('u.bytes_down').as('bytes_down'),
      ])
      .groupBy([bucket, 'u.account_id', 'a.username', 'a.deleted_at', 'si.exit_ip', 'u.country']);
  }

  private ordered(f: UsageRecordFilter) {
    return this.grouped(f).orderBy('bucket', 'desc').orderBy('u.account_id').orderBy('u.country');
  }
}

/** PostgreSQL answers sums of bigint as numeric strings. */
const numbers = (r: UsageRecordRow): UsageRecordRow => ({ ...r, bytes_up: Number(r.bytes_up), bytes_down: Number(r.bytes_down) });

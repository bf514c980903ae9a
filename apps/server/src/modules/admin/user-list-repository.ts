import type { ManageUserQuery, UserFilter } from '@resi/contract';
import { type Kysely, type Transaction, sql } from 'kysely';
import { containsText } from '../../db/like';
import type { UserRow } from '../../db/rows';
import type { Database } from '../../db/schema';
import { balanceQuery } from '../traffic/traffic-repository';

type Trx = Transaction<Database>;
const DAY_END = 'T23:59:59.999Z';

/** A user row as the admin list shows it: the row plus what is read from the user's other tables. */
export type AdminUserRow = UserRow & {
  referrer_email: string | null;
  last_login_ip: string | null;
  balance_bytes: number;
  active_static_ips: number;
  paid_total: number;
};

const SORT_COLUMNS = { createdAt: 'u.created_at', lastLoginAt: 'u.last_login_at', paidTotal: 'paid_total' } as const;

/** The admin's user list (docs/api.md#administration): filters, figures and sorts on both stores. */
export class UserListRepository {
  constructor(private readonly db: Kysely<Database>) {}

  /** `users as u` narrowed by the list's filters, and by chosen ids when given. */
  private filtered(f: UserFilter & { ids?: number[] }, trx?: Trx) {
    let q = (trx ?? this.db).selectFrom('users as u');
    if (f.ids) q = q.where('u.id', 'in', f.ids);
    if (f.email) q = q.where(containsText('u.email', f.email.toLowerCase()));
    if (f.account) q = q.where(containsText('u.account', f.account.toLowerCase()));
    if (f.role) q = q.where('u.role', '=', f.role);
    if (f.status) q = q.where('u.status', '=', f.status);
    if (f.distributor) q = q.where('u.is_distributor', '=', f.distributor === 'true' ? 1 : 0);
    if (f.referrerId) q = q.where('u.referrer_id', '=', f.referrerId);
    if (f.channelKey) q = q.where('u.channel_key', '=', f.channelKey);
    if (f.channelValue) q = q.where('u.channel_value', '=', f.channelValue);
    if (f.from) q = q.where('u.created_at', '>=', `${f.from}T00:00:00.000Z`);
    if (f.to) q = q.where('u.created_at', '<=', `${f.to}${DAY_END}`);
    return q;
  }

  /** One page of the list, sorted as asked; `limit: null` is the CSV export of every matching row. */
  async page(q: ManageUserQuery, now: string, limit: number | null = q.pageSize): Promise<{ items: AdminUserRow[]; total: number }> {
    const base = this.filtered(q);
    const { n } = await base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
    // Users without a figure (never signed in) go last whichever way the column is sorted.
    const column = SORT_COLUMNS[q.sort];
    let rows = this.withFigures(base, now)
      .orderBy(sql.ref(column), (ob) => (q.order === 'asc' ? ob.asc() : ob.desc()).nullsLast())
      .orderBy('u.id', q.order);
    if (limit !== null) rows = rows.limit(limit).offset((q.page - 1) * q.pageSize);
    const items = await rows.execute();
    return { items: items.map(numbers), total: Number(n) };
  }

  /** One user with the list's figures. */
  async one(id: number, now: string): Promise<AdminUserRow | undefined> {
    const row = await this.withFigures(this.filtered({ ids: [id] }), now).executeTakeFirst();
    return row && numbers(row);
  }

  /** Ids and standing of the users a bulk action's filter (or id list) matches. */
  matching(f: UserFilter & { ids?: number[] }, trx?: Trx): Promise<Pick<UserRow, 'id' | 'role' | 'status' | 'disabled_by'>[]> {
    return this.filtered(f, trx).select(['u.id', 'u.role', 'u.status', 'u.disabled_by']).orderBy('u.id').execute();
  }

  private withFigures(base: ReturnType<UserListRepository['filtered']>, now: string) {
    return (
      base
        .leftJoin('users as r', 'r.id', 'u.referrer_id')
        // The one balance formula (traffic-repository.ts), joined per user.
        .leftJoin(balanceQuery(this.db, now).as('b'), 'b.user_id', 'u.id')
        .selectAll('u')
        .select('r.email as referrer_email')
        .select((eb) => [
          eb.fn.coalesce('b.left', eb.lit(0)).as('balance_bytes'),
          eb
            .selectFrom('login_logs as l')
            .select('l.ip')
            .whereRef('l.user_id', '=', 'u.id')
            .where('l.result', '=', 'success')
            .orderBy('l.created_at', 'desc')
            .orderBy('l.id', 'desc')
            .limit(1)
            .as('last_login_ip'),
          eb
            .selectFrom('static_allocations as s')
            .select((e) => e.fn.countAll<number>().as('c'))
            .whereRef('s.user_id', '=', 'u.id')
            .where('s.status', '=', 'active')
            .as('active_static_ips'),
          eb.fn
            .coalesce(
              eb
                .selectFrom('orders as o')
                .select((e) => e.fn.sum<number>('o.amount').as('t'))
                .whereRef('o.user_id', '=', 'u.id')
                .where('o.status', '=', 'paid'),
              eb.lit(0),
            )
            .as('paid_total'),
        ])
    );
  }
}

/** Sums and counts come back as strings on PostgreSQL (bigint); the DTO wants numbers. */
function numbers<T extends { balance_bytes: unknown; active_static_ips: unknown; paid_total: unknown }>(row: T) {
  return {
    ...row,
    balance_bytes: Number(row.balance_bytes ?? 0),
    active_static_ips: Number(row.active_static_ips ?? 0),
    paid_total: Number(row.paid_total ?? 0),
  } as T & { balance_bytes: number; active_static_ips: number; paid_total: number };
}

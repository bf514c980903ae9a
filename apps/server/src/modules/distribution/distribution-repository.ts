import { DISTRIBUTION_DEFAULTS, type DistributionSettings, distributionSettings } from '@resi/contract';
import { type Kysely, type RawBuilder, type Transaction, sql } from 'kysely';
import { containsText } from '../../db/like';
import type { Database, DisabledBy } from '../../db/schema';

type Trx = Transaction<Database>;

/** The `settings` row distribution's settings live in, as JSON (like the supply settings). */
const SETTINGS_KEY = 'distribution';
/** Orders whose money came in: a refunded order was paid first. */
const PAID = ['paid', 'refunded'] as const;
const CHANNEL_KEYS = ['hz', 'yl', 'qd'];

const num = (v: unknown): number => Number(v ?? 0);
const dayOf = (column: string): RawBuilder<string> => sql<string>`substr(${sql.ref(column)}, 1, 10)`;

export interface ReferralRow {
  id: number;
  email: string;
  account: string | null;
  distributor_remark: string | null;
  status: 'active' | 'disabled';
  disabled_by: DisabledBy | null;
  created_at: string;
  referrer_id: number;
  distributor_email: string;
  paid_orders: number;
  paid_amount: number;
  commission: number;
}

/** Who a query is about: one distributor's referrals and links, or (null) everyone's, for admins. */
export type Scope = number | null;

export interface ChannelFilter {
  start: string;
  end: string;
  channelKey?: string;
  channelValue?: string;
}

export interface ChannelCount {
  day: string;
  channel_key: string;
  channel_value: string;
  n: number;
  amount?: number;
}

/** A distributor's side of the store: settings, the customers they brought in and their channels. */
export class DistributionRepository {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly currency: string,
  ) {}

  async settings(trx?: Trx): Promise<DistributionSettings> {
    const row = await (trx ?? this.db).selectFrom('settings').select('value').where('key', '=', SETTINGS_KEY).executeTakeFirst();
    return row ? distributionSettings.parse({ ...DISTRIBUTION_DEFAULTS, ...JSON.parse(row.value) }) : DISTRIBUTION_DEFAULTS;
  }

  async saveSettings(s: DistributionSettings, at: string, trx: Trx): Promise<void> {
    const value = JSON.stringify(s);
    await trx
      .insertInto('settings')
      .values({ key: SETTINGS_KEY, value, updated_at: at })
      .onConflict((oc) => oc.column('key').doUpdateSet({ value, updated_at: at }))
      .execute();
  }

  /** Users who registered with this user's invite code, and how many of them paid a non-zero order. */
  async referralCounts(userId: number): Promise<{ referrals: number; paying: number }> {
    const row = await this.db
      .selectFrom('users as u')
      .where('u.referrer_id', '=', userId)
      .select([
        (eb) => eb.fn.countAll().as('referrals'),
        (eb) =>
          eb.fn
            .count('u.id')
            .filterWhere(({ exists, selectFrom }) =>
              exists(
                selectFrom('orders as o')
                  .select('o.id')
                  .whereRef('o.user_id', '=', 'u.id')
                  .where('o.status', 'in', PAID)
                  .where('o.amount', '>', 0),
              ),
            )
            .as('paying'),
      ])
      .executeTakeFirstOrThrow();
    return { referrals: num(row.referrals), paying: num(row.paying) };
  }

  private referrals(scope: Scope) {
    return this.db
      .selectFrom('users as u')
      .innerJoin('users as d', 'd.id', 'u.referrer_id')
      .$if(scope !== null, (q) => q.where('u.referrer_id', '=', scope!));
  }

  async referralPage(
    scope: Scope,
    filter: { email?: string; status?: 'active' | 'disabled' },
    page: number,
    pageSize: number,
  ): Promise<{ items: ReferralRow[]; total: number }> {
    const filtered = <Q extends ReturnType<DistributionRepository['referrals']>>(q: Q): Q =>
      q
        // Emails are stored lower-cased.
        .$if(!!filter.email, (w) => w.where(containsText('u.email', filter.email!.toLowerCase())))
        .$if(filter.status !== undefined, (w) => w.where('u.status', '=', filter.status!)) as Q;
    const [rows, count] = await Promise.all([
      filtered(this.referrals(scope))
        .select([
          'u.id',
          'u.email',
          'u.account',
          'u.distributor_remark',
          'u.status',
          'u.disabled_by',
          'u.created_at',
          'u.referrer_id',
          'd.email as distributor_email',
          (eb) =>
            eb
              .selectFrom('orders as o')
              .whereRef('o.user_id', '=', 'u.id')
              .where('o.status', '=', 'paid')
              .where('o.amount', '>', 0)
              .where('o.currency', '=', this.currency)
              .select((e) => e.fn.countAll().as('n'))
              .as('paid_orders'),
          (eb) =>
            eb
              .selectFrom('orders as o')
              .whereRef('o.user_id', '=', 'u.id')
              .where('o.status', '=', 'paid')
              .where('o.currency', '=', this.currency)
              .select((e) => e.fn.coalesce(e.fn.sum('o.amount'), sql.lit(0)).as('s'))
              .as('paid_amount'),
          (eb) =>
            eb
              .selectFrom('commissions as c')
              .whereRef('c.buyer_id', '=', 'u.id')
              .whereRef('c.distributor_id', '=', 'u.referrer_id')
              .where('c.voided_at', 'is', null)
              .where('c.currency', '=', this.currency)
              .select((e) => e.fn.coalesce(e.fn.sum('c.amount'), sql.lit(0)).as('s'))
              .as('commission'),
        ])
        .orderBy('u.created_at', 'desc')
        .orderBy('u.id', 'desc')
        .limit(pageSize)
        .offset((page - 1) * pageSize)
        .execute(),
      filtered(this.referrals(scope)).select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow(),
    ]);
    return {
      items: rows.map((r) => ({
        ...r,
        referrer_id: Number(r.referrer_id),
        paid_orders: num(r.paid_orders),
        paid_amount: num(r.paid_amount),
        commission: num(r.commission),
      })),
      total: num(count.n),
    };
  }

  /** Counts a landing once per visitor, channel and UTC day: a repeat inserts nothing (unique index). */
  async recordVisit(v: { channelKey: string; channelValue: string; referrerId: number | null; visitor: string; at: string }): Promise<void> {
    await this.db
      .insertInto('channel_visits')
      .values({ channel_key: v.channelKey, channel_value: v.channelValue, referrer_id: v.referrerId, visitor: v.visitor, day: v.at.slice(0, 10), created_at: v.at })
      .onConflict((oc) => oc.doNothing())
      .execute();
  }

  /** All-time landings and registrations per channel that came with this user's invite code. */
  async linkCounts(userId: number): Promise<{ visits: ChannelCount[]; registrations: ChannelCount[] }> {
    const [visits, registrations] = await Promise.all([
      this.db
        .selectFrom('channel_visits')
        .where('referrer_id', '=', userId)
        .select(['channel_key', 'channel_value', (eb) => eb.fn.countAll().as('n')])
        .groupBy(['channel_key', 'channel_value'])
        .execute(),
      this.db
        .selectFrom('users')
        .where('referrer_id', '=', userId)
        .where('channel_key', 'in', CHANNEL_KEYS)
        .where('channel_value', 'is not', null)
        .select(['channel_key', 'channel_value', (eb) => eb.fn.countAll().as('n')])
        .groupBy(['channel_key', 'channel_value'])
        .execute(),
    ]);
    const rows = (list: { channel_key: string | null; channel_value: string | null; n: unknown }[]) =>
      list.map((r) => ({ day: '', channel_key: r.channel_key ?? '', channel_value: r.channel_value ?? '', n: num(r.n) }));
    return { visits: rows(visits), registrations: rows(registrations) };
  }

  /** Landings per day and channel in the span. */
  async channelVisits(scope: Scope, f: ChannelFilter): Promise<ChannelCount[]> {
    const rows = await this.db
      .selectFrom('channel_visits as v')
      .where('v.created_at', '>=', f.start)
      .where('v.created_at', '<=', f.end)
      .$if(scope !== null, (q) => q.where('v.referrer_id', '=', scope!))
      .$if(f.channelKey !== undefined, (q) => q.where('v.channel_key', '=', f.channelKey!))
      .$if(f.channelValue !== undefined, (q) => q.where('v.channel_value', '=', f.channelValue!))
      .select(['v.day', 'v.channel_key', 'v.channel_value', (eb) => eb.fn.countAll().as('n')])
      .groupBy(['v.day', 'v.channel_key', 'v.channel_value'])
      .execute();
    return rows.map((r) => ({ ...r, n: num(r.n) }));
  }

  private channelUsers(scope: Scope, f: ChannelFilter) {
    return this.db
      .selectFrom('users as u')
      .where('u.channel_key', 'in', CHANNEL_KEYS)
      .where('u.channel_value', 'is not', null)
      .$if(scope !== null, (q) => q.where('u.referrer_id', '=', scope!))
      .$if(f.channelKey !== undefined, (q) => q.where('u.channel_key', '=', f.channelKey!))
      .$if(f.channelValue !== undefined, (q) => q.where('u.channel_value', '=', f.channelValue!));
  }

  /** Users who registered through a channel, per day of registration. */
  async channelRegistrations(scope: Scope, f: ChannelFilter): Promise<ChannelCount[]> {
    const day = dayOf('u.created_at');
    const rows = await this.channelUsers(scope, f)
      .where('u.created_at', '>=', f.start)
      .where('u.created_at', '<=', f.end)
      .select([day.as('day'), 'u.channel_key', 'u.channel_value', (eb) => eb.fn.countAll().as('n')])
      .groupBy([day, 'u.channel_key', 'u.channel_value'])
      .execute();
    return rows.map((r) => ({ day: r.day, channel_key: r.channel_key!, channel_value: r.channel_value!, n: num(r.n) }));
  }

  /** Paid orders of a non-zero amount (shop currency) of channel users, per day paid: count and amount. */
  async channelOrders(scope: Scope, f: ChannelFilter): Promise<ChannelCount[]> {
    const day = dayOf('o.paid_at');
    const rows = await this.channelUsers(scope, f)
      .innerJoin('orders as o', 'o.user_id', 'u.id')
      .where('o.status', 'in', PAID)
      .where('o.amount', '>', 0)
      .where('o.currency', '=', this.currency)
      .where('o.paid_at', '>=', f.start)
      .where('o.paid_at', '<=', f.end)
      .select([day.as('day'), 'u.channel_key', 'u.channel_value', (eb) => eb.fn.countAll().as('n'), (eb) => eb.fn.sum('o.amount').as('amount')])
      .groupBy([day, 'u.channel_key', 'u.channel_value'])
      .execute();
    return rows.map((r) => ({ day: r.day, channel_key: r.channel_key!, channel_value: r.channel_value!, n: num(r.n), amount: num(r.amount) }));
  }

  /** Channel users whose first payment (`users.first_paid_at`, docs/data-model.md#statistics-roll-ups) falls in the span, per day of it. */
  async channelFirstPayments(scope: Scope, f: ChannelFilter): Promise<ChannelCount[]> {
    const day = dayOf('u.first_paid_at');
    const rows = await this.channelUsers(scope, f)
      .where('u.first_paid_at', '>=', f.start)
      .where('u.first_paid_at', '<=', f.end)
      .select([day.as('day'), 'u.channel_key', 'u.channel_value', (eb) => eb.fn.countAll().as('n')])
      .groupBy([day, 'u.channel_key', 'u.channel_value'])
      .execute();
    return rows.map((r) => ({ day: r.day, channel_key: r.channel_key!, channel_value: r.channel_value!, n: num(r.n) }));
  }
}

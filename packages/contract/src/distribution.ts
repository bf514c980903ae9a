import { z } from 'zod';
import { accountField, emailField, passwordField } from './auth';
import { pageQuery } from './envelope';
import { entityId } from './ids';

/** Where a distributor may ask to be paid (docs/business-rules.md#payoffs). */
export const PAYOUT_METHODS = ['usdt-trc20', 'alipay', 'bank'] as const;
export type PayoutMethod = (typeof PAYOUT_METHODS)[number];

export const PAYOFF_STATUSES = ['pending', 'approved', 'paid', 'rejected'] as const;

/** Who disabled a user: an admin's disable stands over a distributor's suspension of their own customer. */
export const DISABLED_BY = ['admin', 'distributor'] as const;
export type DisabledBy = (typeof DISABLED_BY)[number];
export type PayoffStatus = (typeof PAYOFF_STATUSES)[number];

/** The query parameters a landing is attributed by (spec §2, navigation rule 4). */
export const CHANNEL_KEYS = ['hz', 'yl', 'qd'] as const;
export type ChannelKey = (typeof CHANNEL_KEYS)[number];

/** The longest window of `GET /distribution/channel`, and its default (today, UTC, included). */
export const CHANNEL_STATS_MAX_DAYS = 400;
export const CHANNEL_STATS_DEFAULT_DAYS = 30;

const rateError = { error: 'validation.commissionRate' };
const holdError = { error: 'validation.holdDays' };
const minPayoutError = { error: 'validation.minPayout' };
const methodsError = { error: 'validation.payoutMethods' };

/** `GET/POST /manage/distribution-settings`; what a store without saved settings uses is DISTRIBUTION_DEFAULTS. */
export const distributionSettings = z.strictObject({
  /** Percent of an order's amount, for distributors without a rate of their own. */
  defaultRate: z.number(rateError).min(0, rateError).max(100, rateError).multipleOf(0.01, rateError),
  /** Days a commission stays pending after the order was paid (a refund inside them voids it). */
  holdDays: z.number(holdError).int(holdError).min(0, holdError).max(365, holdError),
  /** Smallest payoff, minor units of the shop currency. */
  minPayout: z.number(minPayoutError).int(minPayoutError).min(0, minPayoutError).max(1_000_000_000, minPayoutError),
  payoutMethods: z.array(z.enum(PAYOUT_METHODS, methodsError), methodsError).min(1, methodsError).max(PAYOUT_METHODS.length, methodsError),
  /**
   * Whether orders of customers a distributor created themselves (saveuser, no mail code) earn that
   * distributor commission. Off unless the operator says so: the distributor can sign in as such a customer.
   */
  commissionOnCreatedAccounts: z.boolean({ error: 'validation.commissionOnCreatedAccounts' }).default(false),
});
export type DistributionSettings = z.infer<typeof distributionSettings>;

export const DISTRIBUTION_DEFAULTS: DistributionSettings = { defaultRate: 10, holdDays: 7, minPayout: 1000, payoutMethods: ['usdt-trc20'], commissionOnCreatedAccounts: false };

/**
 * The ledger's figures, minor units of `currency` (docs/business-rules.md#commission):
 * pending + available − owed + held + paid = everything earned − everything reversed.
 */
const balances = {
  /** Commission still inside its hold. */
  pending: z.number().int(),
  /** Commission that may be asked for now. */
  available: z.number().int(),
  /** Reversed after it was held or paid out: later commission settles it first. Never both > 0 with `available`. */
  owed: z.number().int(),
  /** In open payoff requests (pending or approved). */
  held: z.number().int(),
  /** Paid out. */
  paid: z.number().int(),
};

export const distributionInfo = z.object({
  inviteCode: z.string(),
  inviteLink: z.string(),
  /** The caller's commission rate in percent (their own or the default). */
  rate: z.number(),
  referrals: z.number().int(),
  /** Referrals with at least one paid order of a non-zero amount. */
  payingReferrals: z.number().int(),
  currency: z.string(),
  ...balances,
  minPayout: z.number().int(),
  payoutMethods: z.array(z.enum(PAYOUT_METHODS)),
});
export type DistributionInfo = z.infer<typeof distributionInfo>;

export const inviteChannelLink = z.object({
  channelKey: z.enum(CHANNEL_KEYS),
  channelValue: z.string(),
  url: z.string(),
  visits: z.number().int(),
  registrations: z.number().int(),
});
export const distributionInvite = z.object({
  inviteCode: z.string(),
  inviteLink: z.string(),
  /** Every channel the caller's links have brought a landing or a registration through, most visits first. */
  links: z.array(inviteChannelLink),
});
export type DistributionInvite = z.infer<typeof distributionInvite>;

/** `GET /distribution/user`: `distributorId` is for admins; a distributor always sees only their own. */
export const distributionUserQuery = pageQuery.extend({
  email: z.string().trim().max(254).optional(),
  status: z.enum(['active', 'disabled']).optional(),
  distributorId: entityId.optional(),
});
export type DistributionUserQuery = z.infer<typeof distributionUserQuery>;

export const distributionUserDto = z.object({
  id: z.number().int(),
  email: z.string(),
  account: z.string().nullable(),
  /** The distributor's own note on this user. */
  remark: z.string().nullable(),
  status: z.enum(['active', 'disabled']),
  /** Who disabled the user: `admin` (the operator; only an admin lifts it) or `distributor`; null while active. */
  disabledBy: z.enum(DISABLED_BY).nullable(),
  createdAt: z.string(),
  distributorId: z.number().int(),
  distributorEmail: z.string(),
  /** Paid orders (refunded ones not counted) and their amounts, minor units of the shop currency. */
  paidOrders: z.number().int(),
  paidAmount: z.number().int(),
  /** Commission this user's orders earned their distributor, net of reversals. */
  commission: z.number().int(),
  /** The shop currency the three figures above are in. */
  currency: z.string(),
});
export type DistributionUserDto = z.infer<typeof distributionUserDto>;

const remarkField = z.string().trim().max(200, { error: 'validation.userRemark' }).nullable().optional();

/**
 * `POST /distribution/saveuser`: without `id` a new customer under the caller (email and password
 * required, as at registration); with `id` the remark or status of one of the caller's referrals, nothing else.
 */
export const saveDistributionUserBody = z
  .strictObject({
    id: entityId.optional(),
    email: emailField.optional(),
    account: accountField.optional(),
    password: passwordField.optional(),
    remark: remarkField,
    status: z.enum(['active', 'disabled']).optional(),
  })
  .superRefine((b, ctx) => {
    if (b.id === undefined) {
      if (b.email === undefined) ctx.addIssue({ code: 'custom', path: ['email'], message: 'validation.required' });
      if (b.password === undefined) ctx.addIssue({ code: 'custom', path: ['password'], message: 'validation.required' });
    } else {
      for (const key of ['email', 'account', 'password'] as const) {
        if (b[key] !== undefined) ctx.addIssue({ code: 'custom', path: [key], message: 'validation.saveUserEdit' });
      }
    }
  });
export type SaveDistributionUserBody = z.infer<typeof saveDistributionUserBody>;

/**
 * A ledger row as the ledger sees it now: an earning is `pending` until its available time, then
 * `available`, or `voided` by a refund inside its hold; a refund after the hold adds a `reversed` row
 * of the negative amount.
 */
export const COMMISSION_STATES = ['pending', 'available', 'voided', 'reversed'] as const;
export type CommissionState = (typeof COMMISSION_STATES)[number];

/** `GET /distribution/commission`: `distributorId` is for admins; a distributor always sees only their own. */
export const commissionQuery = pageQuery.extend({
  state: z.enum(COMMISSION_STATES, { error: 'validation.commissionState' }).optional(),
  distributorId: entityId.optional(),
});
export type CommissionQuery = z.infer<typeof commissionQuery>;

export const commissionDto = z.object({
  id: z.number().int(),
  distributorId: z.number().int(),
  orderNo: z.string(),
  /** The referred user whose order earned it. */
  buyerEmail: z.string(),
  /** What the order was paid, minor units of `currency`. */
  orderAmount: z.number().int(),
  /** Percent the earning was worked out at. */
  rate: z.number(),
  /** Minor units of `currency`; negative for a reversal. */
  amount: z.number().int(),
  currency: z.string(),
  state: z.enum(COMMISSION_STATES),
  createdAt: z.string(),
  availableAt: z.string(),
  voidedAt: z.string().nullable(),
});
export type CommissionDto = z.infer<typeof commissionDto>;

const amountError = { error: 'validation.payoutAmount' };
/** `POST /distribution/payoff`: a USDT-TRC20 account must be a TRON address whose checksum holds (checked by the server). */
export const payoffBody = z.strictObject({
  amount: z.number(amountError).int(amountError).positive(amountError).max(1_000_000_000_000, amountError),
  method: z.enum(PAYOUT_METHODS, { error: 'validation.payoutMethod' }),
  account: z.string({ error: 'validation.payoutAccount' }).trim().min(1, { error: 'validation.payoutAccount' }).max(200, { error: 'validation.payoutAccount' }),
});
export type PayoffBody = z.infer<typeof payoffBody>;

/** `GET /distribution/payoff`: `distributorId` is for admins. */
export const payoffQuery = pageQuery.extend({
  status: z.enum(PAYOFF_STATUSES, { error: 'validation.payoffStatus' }).optional(),
  distributorId: entityId.optional(),
});
export type PayoffQuery = z.infer<typeof payoffQuery>;

export const payoffDto = z.object({
  id: z.number().int(),
  distributorId: z.number().int(),
  distributorEmail: z.string(),
  amount: z.number().int(),
  currency: z.string(),
  method: z.enum(PAYOUT_METHODS),
  account: z.string(),
  status: z.enum(PAYOFF_STATUSES),
  /** The admin's note; for a rejected request, the reason. */
  note: z.string().nullable(),
  txRef: z.string().nullable(),
  decidedBy: z.number().int().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
  approvedAt: z.string().nullable(),
  paidAt: z.string().nullable(),
  rejectedAt: z.string().nullable(),
  /** The distributor's commission in the request's currency, net of reversals, voided earnings not counted. */
  earned: z.number().int(),
  /** The part of `earned` from customers the distributor created themselves (saveuser). */
  earnedFromCreatedAccounts: z.number().int(),
});
export type PayoffDto = z.infer<typeof payoffDto>;

/** `POST /distribution/status` (admins): a rejection needs its reason in `note`. */
export const payoffStatusBody = z
  .strictObject({
    id: entityId,
    status: z.enum(['approved', 'rejected', 'paid'], { error: 'validation.payoffStatus' }),
    note: z.string().trim().max(500, { error: 'validation.note' }).optional(),
    txRef: z.string().trim().max(200, { error: 'validation.txRef' }).optional(),
  })
  .superRefine((b, ctx) => {
    if (b.status === 'rejected' && !b.note) ctx.addIssue({ code: 'custom', path: ['note'], message: 'validation.payoffReason' });
  });
export type PayoffStatusBody = z.infer<typeof payoffStatusBody>;

const channelValueField = z.string({ error: 'validation.channel' }).trim().min(1, { error: 'validation.channel' }).max(64, { error: 'validation.channel' });

/** `POST /channel/visit` (public): one landing through a channel link, once per browser session. */
export const channelVisitBody = z.strictObject({
  channelKey: z.enum(CHANNEL_KEYS, { error: 'validation.channelKey' }),
  channelValue: channelValueField,
  inviteCode: z.string().trim().max(32, { error: 'validation.inviteCode' }).optional(),
});
export type ChannelVisitBody = z.infer<typeof channelVisitBody>;

/** `GET /distribution/channel`: UTC dates, both inclusive (order and span are checked by the server). */
export const channelStatsQuery = z.object({
  from: z.iso.date({ error: 'validation.date' }).optional(),
  to: z.iso.date({ error: 'validation.date' }).optional(),
  channelKey: z.enum(CHANNEL_KEYS, { error: 'validation.channelKey' }).optional(),
  channelValue: z.string().trim().max(64, { error: 'validation.channel' }).optional(),
});
export type ChannelStatsQuery = z.infer<typeof channelStatsQuery>;

const funnel = {
  /** Landings recorded by `POST /channel/visit`. */
  visits: z.number().int(),
  /** Users who registered through the channel that day. */
  registrations: z.number().int(),
  /** Of the channel's users, those whose first paid order (non-zero amount) falls on that day. */
  payingUsers: z.number().int(),
  /** Paid orders of the channel's users (refunded ones included, by paid time) and their amounts. */
  orders: z.number().int(),
  revenue: z.number().int(),
};
export const channelStatsRow = z.object({ day: z.string(), channelKey: z.enum(CHANNEL_KEYS), channelValue: z.string(), ...funnel });
export const channelStats = z.object({ from: z.string(), to: z.string(), currency: z.string(), rows: z.array(channelStatsRow), totals: z.object(funnel) });
export type ChannelStats = z.infer<typeof channelStats>;
export type ChannelStatsRow = z.infer<typeof channelStatsRow>;

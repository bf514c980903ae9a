import { z } from 'zod';
import { apiKeyDto } from './api-keys';
import { passwordField, userDto } from './auth';
import { ORDER_KINDS, ORDER_STATUSES, trafficGrantDto } from './commerce';
import { pageQuery } from './envelope';
import { entityId } from './ids';
import { LOGIN_RESULTS } from './login-analysis';

export const USER_SORTS = ['createdAt', 'lastLoginAt', 'paidTotal'] as const;
export type UserSort = (typeof USER_SORTS)[number];

const idList = { error: 'validation.userIds' };

/**
 * The user list's filters: shared by the page, its CSV export and the bulk actions. Text filters match
 * a part (`email`, `account`); `from`/`to` are registration dates (UTC, inclusive).
 */
export const userFilter = z.object({
  email: z.string().trim().max(254).optional(),
  account: z.string().trim().max(32).optional(),
  role: z.enum(['customer', 'admin']).optional(),
  status: z.enum(['active', 'disabled']).optional(),
  /** `true`: distributors only; `false`: everyone else. */
  distributor: z.enum(['true', 'false']).optional(),
  referrerId: entityId.optional(),
  channelKey: z.string().trim().max(64).optional(),
  channelValue: z.string().trim().max(64).optional(),
  from: z.iso.date({ error: 'validation.date' }).optional(),
  to: z.iso.date({ error: 'validation.date' }).optional(),
});
export type UserFilter = z.infer<typeof userFilter>;

/** `ids` (comma-separated) narrows the list to chosen rows: the export of a selection. */
export const manageUserQuery = pageQuery.extend({
  ...userFilter.shape,
  ids: z
    .string(idList)
    .regex(/^[1-9][0-9]{0,15}(,[1-9][0-9]{0,15}){0,499}$/, idList)
    .transform((s) => s.split(',').map(Number))
    .optional(),
  sort: z.enum(USER_SORTS).default('createdAt'),
  order: z.enum(['asc', 'desc']).default('desc'),
});
export type ManageUserQuery = z.infer<typeof manageUserQuery>;

/** What an admin sees of a user in the list: the user's own view plus attribution and standing. */
export const adminUserDto = userDto.extend({
  referrerId: z.number().int().nullable(),
  referrerEmail: z.string().nullable(),
  channelKey: z.string().nullable(),
  channelValue: z.string().nullable(),
  /** Percent of referred users' paid orders; null = the shop's default rate. */
  commissionRate: z.number().nullable(),
  remark: z.string().nullable(),
  lastLoginIp: z.string().nullable(),
  /** Unexpired traffic left, in bytes (the same figure the user sees). */
  balanceBytes: z.number().int(),
  activeStaticIps: z.number().int(),
  /** Sum of the user's paid orders, in minor units of `currency` (the shop's). */
  paidTotal: z.number().int(),
  currency: z.string(),
});
export type AdminUserDto = z.infer<typeof adminUserDto>;

export const adminUserDetail = z.object({
  user: adminUserDto,
  grants: z.array(trafficGrantDto),
  proxyAccounts: z.array(
    z.object({
      id: z.number().int(),
      username: z.string(),
      kind: z.enum(['rotating', 'static']),
      status: z.enum(['active', 'disabled']),
      limitBytes: z.number().int().nullable(),
      usedBytes: z.number().int(),
      remark: z.string().nullable(),
      createdAt: z.string(),
    }),
  ),
  staticIps: z.array(
    z.object({
      id: z.number().int(),
      ip: z.string(),
      country: z.string(),
      status: z.enum(['active', 'grace', 'released']),
      startsAt: z.string(),
      expiresAt: z.string(),
    }),
  ),
  orders: z.array(
    z.object({
      orderNo: z.string(),
      kind: z.enum(ORDER_KINDS),
      status: z.enum(ORDER_STATUSES),
      amount: z.number().int(),
      currency: z.string(),
      payMethod: z.string().nullable(),
      createdAt: z.string(),
      paidAt: z.string().nullable(),
    }),
  ),
  /** The user's API keys that are not revoked (docs/api.md#programs). */
  apiKeys: z.array(apiKeyDto),
  logins: z.array(z.object({ at: z.string(), ip: z.string().nullable(), userAgent: z.string().nullable(), result: z.enum(LOGIN_RESULTS) })),
  audit: z.array(
    z.object({
      at: z.string(),
      actorId: z.number().int().nullable(),
      actorEmail: z.string().nullable(),
      action: z.string(),
      before: z.unknown(),
      after: z.unknown(),
    }),
  ),
});
export type AdminUserDetail = z.infer<typeof adminUserDetail>;

const commissionError = { error: 'validation.commissionRate' };
export const updateUserBody = z.strictObject({
  status: z.enum(['active', 'disabled']).optional(),
  role: z.enum(['customer', 'admin']).optional(),
  isDistributor: z.boolean().optional(),
  commissionRate: z.number(commissionError).min(0, commissionError).max(100, commissionError).multipleOf(0.01, commissionError).nullable().optional(),
  remark: z.string().trim().max(200, { error: 'validation.userRemark' }).nullable().optional(),
});
export type UpdateUserBody = z.infer<typeof updateUserBody>;

export const adminResetPassBody = z.strictObject({ userId: entityId, password: passwordField.optional() });
export type AdminResetPassBody = z.infer<typeof adminResetPassBody>;
/** `password` only when the server made it up: shown to the admin once, never stored in clear. */
export const adminResetPassResponse = z.object({ password: z.string().optional() });

/** Exactly one of `ids` and `filter` (the list's filters) says whom a bulk action touches. */
export const userBulkBody = z
  .strictObject({
    action: z.enum(['disable', 'enable']),
    ids: z.array(z.int().positive(), idList).min(1, idList).max(500, idList).optional(),
    filter: userFilter.strict().optional(),
  })
  .refine((b) => (b.ids === undefined) !== (b.filter === undefined), { error: 'validation.bulkTarget', path: ['ids'] });
export type UserBulkBody = z.infer<typeof userBulkBody>;
/** `skipped`: rows the guard rails kept as they were (the admin's own account, the last active admin). */
export const userBulkResponse = z.object({ affected: z.number().int(), skipped: z.number().int() });

import { z } from 'zod';
import { localizedText, payMethod, staticRegionDto } from './commerce';
import { pageQuery } from './envelope';
import { entityId } from './ids';

// ---------- static residential inventory (docs/business-rules.md#static-residential-ips) ----------

/** Where an inventory row is in its life: free to sell, held by an order or an allocation, resting, or gone. */
export const STATIC_INVENTORY_STATUSES = ['free', 'reserved', 'allocated', 'grace', 'cooldown', 'retired'] as const;
export type StaticInventoryStatus = (typeof STATIC_INVENTORY_STATUSES)[number];

/** At most this many lines in one import, so one paste cannot hold the store's write lock for long. */
export const STATIC_IMPORT_MAX_LINES = 1000;

/** Schemes a static IP's upstream is dialled with (inventory-lines.ts). */
export const STATIC_UPSTREAM_PROTOCOLS = ['http', 'socks5'] as const;

const isp = z.string().trim().max(100, { error: 'validation.isp' });
const businessIds = z.array(entityId).max(50).default([]);
/**
 * What one IP costs the operator per month, minor units of the shop currency: accrued per day held for the
 * margin in Statistics (docs/business-rules.md#margin).
 */
const costPerMonth = z
  .number({ error: 'validation.costPerMonth' })
  .int({ error: 'validation.costPerMonth' })
  .min(0, { error: 'validation.costPerMonth' })
  .max(100_000_000, { error: 'validation.costPerMonth' });

export const staticImportBody = z.strictObject({
  regionId: entityId,
  /** The business lines these IPs may serve; empty = all. */
  businessIds,
  isp: isp.optional(),
  /** The monthly cost of every IP of this import; none: 0. */
  costPerMonth: costPerMonth.optional(),
  lines: z.string().max(STATIC_IMPORT_MAX_LINES * 300, { error: 'validation.staticLines' }),
});
export type StaticImportBody = z.infer<typeof staticImportBody>;

export const STATIC_IMPORT_OUTCOMES = ['created', 'duplicate', 'invalid'] as const;

/** One pasted line's outcome: its number (from 1), the exit IP read from it, and why it was not taken. */
export const staticImportLine = z.object({
  line: z.number().int(),
  status: z.enum(STATIC_IMPORT_OUTCOMES),
  ip: z.string().nullable(),
  id: z.number().int().nullable(),
  reason: z.string().nullable(),
});
export type StaticImportLine = z.infer<typeof staticImportLine>;

export const staticImportResult = z.object({
  results: z.array(staticImportLine),
  created: z.number().int(),
  duplicate: z.number().int(),
  invalid: z.number().int(),
});
export type StaticImportResult = z.infer<typeof staticImportResult>;

export const staticInventoryDto = z.object({
  id: z.number().int(),
  ip: z.string(),
  regionId: z.number().int(),
  businessIds: z.array(z.number().int()),
  isp: z.string().nullable(),
  protocol: z.enum(STATIC_UPSTREAM_PROTOCOLS),
  /** The upstream as `scheme://user:••••@host:port`: never the password. */
  upstream: z.string(),
  status: z.enum(STATIC_INVENTORY_STATUSES),
  cooldownUntil: z.string().nullable(),
  remark: z.string().nullable(),
  /** What the IP costs the operator per month, minor units of `currency`. */
  costPerMonth: z.number().int(),
  /** The shop currency, which `costPerMonth` is in. */
  currency: z.string(),
  /** The customer's IP on this row (not released), so an admin can extend it at no charge. */
  holder: z.object({ allocationId: z.number().int(), userId: z.number().int(), expiresAt: z.string() }).nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type StaticInventoryDto = z.infer<typeof staticInventoryDto>;

export const staticInventoryQuery = pageQuery.extend({
  regionId: entityId.optional(),
  businessId: entityId.optional(),
  status: z.enum(STATIC_INVENTORY_STATUSES, { error: 'validation.staticStatus' }).optional(),
  /** A prefix of the exit IP. */
  ip: z
    .string()
    .trim()
    .regex(/^[0-9A-Fa-f.:]{0,45}$/, { error: 'validation.ipPrefix' })
    .optional(),
});
export type StaticInventoryQuery = z.infer<typeof staticInventoryQuery>;

/**
 * Editing a row: its region, lines, ISP, remark and monthly cost (absent: kept, so a program written before the
 * cost existed does not zero it). The upstream is replaced by importing again.
 */
export const staticInventoryUpdate = z.strictObject({
  regionId: entityId,
  businessIds,
  isp: isp.nullable().default(null),
  remark: z.string().trim().max(200).nullable().default(null),
  costPerMonth: costPerMonth.optional(),
});
export type StaticInventoryUpdate = z.infer<typeof staticInventoryUpdate>;

/** One cell of the stock board: rows of a region that may serve a business line (null = rows for all), by status. */
export const staticStockCell = z.object({
  regionId: z.number().int(),
  businessId: z.number().int().nullable(),
  counts: z.record(z.enum(STATIC_INVENTORY_STATUSES), z.number().int()),
});
export type StaticStockCell = z.infer<typeof staticStockCell>;

export const STATIC_EVENTS = ['imported', 'edited', 'reserved', 'allocated', 'released', 'replaced', 'cooled', 'retired'] as const;

export const staticInventoryEvent = z.object({
  id: z.number().int(),
  event: z.enum(STATIC_EVENTS),
  userId: z.number().int().nullable(),
  orderId: z.number().int().nullable(),
  actorId: z.number().int().nullable(),
  reason: z.string().nullable(),
  at: z.string(),
});
export type StaticInventoryEvent = z.infer<typeof staticInventoryEvent>;

/** Free rows of a static region that may serve each enabled business line: what a customer can buy now. */
export const staticStock = z.array(z.object({ businessId: z.number().int(), available: z.number().int() }));

/** A static region as customers see it (`GET /api/static-region`): with its stock per business line. */
export const staticRegionWithStock = staticRegionDto.extend({ stock: staticStock });
export type StaticRegionWithStock = z.infer<typeof staticRegionWithStock>;

// ---------- buying, renewing and using static IPs ----------

/** At most this many IPs in one purchase, renewal or grant. */
export const STATIC_MAX_QUANTITY = 100;

const days = z.number({ error: 'validation.staticDays' }).int({ error: 'validation.staticDays' }).min(1, { error: 'validation.staticDays' }).max(3650, { error: 'validation.staticDays' });
const quantity = z
  .number({ error: 'validation.staticQuantity' })
  .int({ error: 'validation.staticQuantity' })
  .min(1, { error: 'validation.staticQuantity' })
  .max(STATIC_MAX_QUANTITY, { error: 'validation.staticQuantity' });
const staticProxyIds = z
  .array(entityId)
  .min(1, { error: 'validation.staticProxyIds' })
  .max(STATIC_MAX_QUANTITY, { error: 'validation.staticProxyIds' })
  .refine((ids) => new Set(ids).size === ids.length, { error: 'validation.staticProxyIds' });
const note = z.string().trim().min(1, { error: 'validation.note' }).max(200, { error: 'validation.note' });

export const buyStaticBody = z.strictObject({ regionId: entityId, businessId: entityId, quantity, days, payMethod });
export type BuyStaticBody = z.infer<typeof buyStaticBody>;

export const buyStaticRenewBody = z.strictObject({ staticProxyIds, days, payMethod });
export type BuyStaticRenewBody = z.infer<typeof buyStaticRenewBody>;

export const staticRechargeBody = z.strictObject({ userId: entityId, regionId: entityId, businessId: entityId, quantity, days, note });
export type StaticRechargeBody = z.infer<typeof staticRechargeBody>;

export const staticRenewRechargeBody = z.strictObject({ staticProxyIds, days, note });
export type StaticRenewRechargeBody = z.infer<typeof staticRenewRechargeBody>;

export const STATIC_PROXY_STATUSES = ['active', 'grace', 'released'] as const;
export type StaticProxyStatus = (typeof STATIC_PROXY_STATUSES)[number];

/** A customer's static IP (`GET /api/proxy/static`): its exit, its own gateway credentials and its time. */
export const staticProxyDto = z.object({
  id: z.number().int(),
  ip: z.string(),
  regionId: z.number().int(),
  /** The operator's names of its region and business line, whatever they are set to now (enabled or not). */
  regionName: localizedText,
  country: z.string(),
  city: z.string().nullable(),
  businessId: z.number().int(),
  businessName: localizedText,
  isp: z.string().nullable(),
  username: z.string(),
  password: z.string(),
  host: z.string(),
  httpPort: z.number().int(),
  socksPort: z.number().int(),
  startsAt: z.string(),
  expiresAt: z.string(),
  status: z.enum(STATIC_PROXY_STATUSES),
  remark: z.string().nullable(),
  replacementsLeft: z.number().int(),
  /** Bytes up and down its login carried today (UTC) and over the last 30 days, today included: static traffic is its own, never the rotating balance's. */
  bytesToday: z.number().int(),
  bytes30Days: z.number().int(),
});
export type StaticProxyDto = z.infer<typeof staticProxyDto>;

export const staticProxyQuery = pageQuery.extend({
  status: z.enum(STATIC_PROXY_STATUSES, { error: 'validation.staticStatus' }).optional(),
  /** Only IPs not released that expire (or expired) within this many days from now: Account Home's reminder. */
  expiringDays: z.coerce.number({ error: 'validation.expiringDays' }).int({ error: 'validation.expiringDays' }).min(1, { error: 'validation.expiringDays' }).max(90, { error: 'validation.expiringDays' }).optional(),
});
export type StaticProxyQuery = z.infer<typeof staticProxyQuery>;

/** Why a customer asks for another IP (kept in the old row's history). */
export const STATIC_REPLACE_REASONS = ['not-working', 'wrong-location', 'blocked', 'slow', 'other'] as const;

export const staticReplaceBody = z.strictObject({
  reason: z.enum(STATIC_REPLACE_REASONS, { error: 'validation.replaceReason' }),
  note: z.string().trim().max(150, { error: 'validation.replaceNote' }).optional(),
});
export type StaticReplaceBody = z.infer<typeof staticReplaceBody>;

/** The customer's own note on a static IP (`PUT /api/proxy/static/:id`); null or empty clears it. */
export const staticRemarkBody = z.strictObject({
  remark: z.string().trim().max(100, { error: 'validation.remark' }).nullable(),
});
export type StaticRemarkBody = z.infer<typeof staticRemarkBody>;

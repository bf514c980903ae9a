import { z } from 'zod';
import { entityId } from './ids';
import { pageQuery } from './envelope';
import { ORDER_KINDS, ORDER_STATUSES, PAID_BY, PAY_METHODS, type PayMethod } from './commerce-values';

export * from './commerce-values';

export const payMethod = z.enum(PAY_METHODS, { error: 'validation.payMethod' });

/** Text an operator types once per language. */
export const localizedText = z.strictObject({
  en: z.string().trim().min(1, { error: 'validation.required' }).max(100),
  'zh-cn': z.string().trim().min(1, { error: 'validation.required' }).max(100),
  zh: z.string().trim().min(1, { error: 'validation.required' }).max(100),
});
export type LocalizedText = z.infer<typeof localizedText>;

/** Badges are keys the console translates, so a badge never shows in the wrong language. */
export const PACKAGE_BADGES = ['popular', 'best-value', 'new'] as const;
export const packageBadge = z.enum(PACKAGE_BADGES);

const money = z.number().int().min(0);
const currency = z.string().regex(/^[A-Z]{3}$/, { error: 'validation.currency' });

// ---------- catalogue ----------

export const packageDto = z.object({
  id: z.number().int(),
  name: localizedText,
  bytes: z.number().int(),
  price: money,
  currency,
  validityDays: z.number().int(),
  badge: packageBadge.nullable(),
  sort: z.number().int(),
  enabled: z.boolean(),
});
export type PackageDto = z.infer<typeof packageDto>;

export const packageBody = z.strictObject({
  name: localizedText,
  bytes: z.number().int().min(1024 * 1024, { error: 'validation.packageBytes' }).max(Number.MAX_SAFE_INTEGER),
  price: z.number().int().min(1, { error: 'validation.price' }).max(100_000_000),
  validityDays: z.number().int().min(1, { error: 'validation.validityDays' }).max(3650),
  badge: packageBadge.nullable().default(null),
  sort: z.number().int().min(0).max(10_000).default(0),
  enabled: z.boolean().default(true),
});
export type PackageBody = z.infer<typeof packageBody>;

export const staticPriceDto = z.object({
  id: z.number().int(),
  regionId: z.number().int(),
  businessId: z.number().int(),
  days: z.number().int(),
  price: money,
  currency,
});
export type StaticPriceDto = z.infer<typeof staticPriceDto>;

export const staticPriceBody = z.strictObject({
  regionId: entityId,
  businessId: entityId,
  days: z.number().int().min(1, { error: 'validation.validityDays' }).max(3650),
  price: z.number().int().min(1, { error: 'validation.price' }).max(100_000_000),
});

export const goodsResponse = z.object({ packages: z.array(packageDto), staticPrices: z.array(staticPriceDto) });

/** A rotating-residential exit area: a country, or a state or city in it. */
export const regionDto = z.object({
  id: z.number().int(),
  country: z.string(),
  state: z.string().nullable(),
  city: z.string().nullable(),
  name: localizedText,
  poolSize: z.number().int(),
  sort: z.number().int(),
  enabled: z.boolean(),
});
export type RegionDto = z.infer<typeof regionDto>;

const slug = z
  .string()
  .trim()
  .toLowerCase()
  .regex(/^[a-z0-9]{1,32}$/, { error: 'validation.regionCode' });

export const regionBody = z.strictObject({
  country: z
    .string()
    .trim()
    .toUpperCase()
    .regex(/^[A-Z]{2}$/, { error: 'validation.country' }),
  state: slug.nullable().default(null),
  city: slug.nullable().default(null),
  name: localizedText,
  poolSize: z.number().int().min(0).max(1_000_000_000).default(0),
  sort: z.number().int().min(0).max(10_000).default(0),
  enabled: z.boolean().default(true),
});
export type RegionBody = z.infer<typeof regionBody>;

export const staticRegionDto = z.object({
  id: z.number().int(),
  country: z.string(),
  city: z.string().nullable(),
  name: localizedText,
  sort: z.number().int(),
  enabled: z.boolean(),
});
export type StaticRegionDto = z.infer<typeof staticRegionDto>;

export const staticRegionBody = z.strictObject({
  country: regionBody.shape.country,
  city: slug.nullable().default(null),
  name: localizedText,
  sort: z.number().int().min(0).max(10_000).default(0),
  enabled: z.boolean().default(true),
});

export const businessDto = z.object({
  id: z.number().int(),
  code: z.string(),
  name: localizedText,
  sort: z.number().int(),
  enabled: z.boolean(),
});
export type BusinessDto = z.infer<typeof businessDto>;

export const businessBody = z.strictObject({
  code: slug,
  name: localizedText,
  sort: z.number().int().min(0).max(10_000).default(0),
  enabled: z.boolean().default(true),
});

export const idParams = z.strictObject({ id: entityId });

// ---------- orders and payments ----------

/** One line of an order, frozen at the price it was bought for. */
export const trafficItem = z.object({
  type: z.literal('traffic'),
  name: localizedText,
  bytes: z.number().int(),
  validityDays: z.number().int(),
  quantity: z.number().int(),
  unitPrice: money,
});
/** Static IPs of one region and business line: `quantity` IPs for `days` days each. `name` is the region's. */
export const staticItem = z.object({
  type: z.literal('static'),
  name: localizedText,
  regionId: z.number().int(),
  businessId: z.number().int(),
  business: localizedText,
  days: z.number().int(),
  quantity: z.number().int(),
  unitPrice: money,
});
/** One static IP renewed for `days` days. `name` is its region's. */
export const staticRenewItem = z.object({
  type: z.literal('static-renew'),
  name: localizedText,
  staticProxyId: z.number().int(),
  ip: z.string(),
  days: z.number().int(),
  quantity: z.number().int(),
  unitPrice: money,
});
export const orderItemDto = z.discriminatedUnion('type', [trafficItem, staticItem, staticRenewItem]);
export type OrderItemDto = z.infer<typeof orderItemDto>;
export type TrafficItem = z.infer<typeof trafficItem>;
export type StaticItem = z.infer<typeof staticItem>;
export type StaticRenewItem = z.infer<typeof staticRenewItem>;

/** What the browser does next to pay (docs/api.md#payment-instructions). */
export const paymentInstruction = z.discriminatedUnion('type', [
  z.object({ type: z.literal('redirect'), url: z.string() }),
  z.object({ type: z.literal('qr'), text: z.string(), url: z.string().nullable() }),
  z.object({
    type: z.literal('address'),
    network: z.literal('TRC20'),
    asset: z.literal('USDT'),
    address: z.string(),
    /** Exact decimal amount to send, e.g. "10.000137": the fraction identifies the order. */
    amount: z.string(),
  }),
  z.object({ type: z.literal('instructions'), text: z.string() }),
]);
export type PaymentInstruction = z.infer<typeof paymentInstruction>;

export const orderDto = z.object({
  orderNo: z.string(),
  kind: z.enum(ORDER_KINDS),
  status: z.enum(ORDER_STATUSES),
  items: z.array(orderItemDto),
  amount: money,
  currency,
  payMethod: payMethod.nullable(),
  payment: paymentInstruction.nullable(),
  note: z.string().nullable(),
  expiresAt: z.string(),
  paidAt: z.string().nullable(),
  createdAt: z.string(),
});
export type OrderDto = z.infer<typeof orderDto>;

export const buyDynamicBody = z.strictObject({ goodsId: entityId, payMethod });
export type BuyDynamicBody = z.infer<typeof buyDynamicBody>;
export const buyResponse = z.object({ order: orderDto, payment: paymentInstruction });

export const orderNoField = z.string().trim().min(1, { error: 'validation.orderNo' }).max(40);
export const orderCheckBody = z.strictObject({ orderNo: orderNoField });
/** `POST /order-cancel`: a customer abandons an unpaid order of theirs. */
export const orderCancelBody = orderCheckBody;

export const intentionBody = z.strictObject({
  kind: z.enum(['dynamic', 'static']),
  goodsId: entityId.optional(),
  payMethod: payMethod.optional(),
});

export const payMethodsResponse = z.object({ methods: z.array(payMethod) });

export const myOrderQuery = pageQuery.extend({
  status: z.enum(ORDER_STATUSES).optional(),
  payMethod: payMethod.optional(),
  from: z.iso.date({ error: 'validation.date' }).optional(),
  to: z.iso.date({ error: 'validation.date' }).optional(),
});
export type MyOrderQuery = z.infer<typeof myOrderQuery>;
/** `GET /record/order`: every order of the caller (Recharge Details), optionally of one kind. */
export const myAllOrdersQuery = myOrderQuery.extend({ kind: z.enum(ORDER_KINDS).optional() });
export type MyAllOrdersQuery = z.infer<typeof myAllOrdersQuery>;

// ---------- traffic ----------

export const trafficGrantDto = z.object({
  id: z.number().int(),
  orderNo: z.string().nullable(),
  bytes: z.number().int(),
  usedBytes: z.number().int(),
  expiresAt: z.string(),
  createdAt: z.string(),
});
/** Balance and grants, with the usage charts' data (see usageQuery in proxies.ts). */
export const trafficResponse = z.object({
  balanceBytes: z.number().int(),
  usedBytes: z.number().int(),
  /** When the balance runs out at the last 7 days' pace, grants spent earliest expiry first; null: no use, or nothing left. */
  runsOutAt: z.string().nullable(),
  grants: z.array(trafficGrantDto),
  series: z.array(z.object({ bucket: z.string(), bytesUp: z.number().int(), bytesDown: z.number().int() })),
  byCountry: z.array(z.object({ country: z.string().nullable(), bytes: z.number().int() })),
  byAccount: z.array(z.object({ accountId: z.number().int(), username: z.string(), bytes: z.number().int() })),
});

// ---------- admin order desk ----------

export const manageOrderQuery = myOrderQuery.extend({
  kind: z.enum(ORDER_KINDS).optional(),
  userId: entityId.optional(),
  email: z.string().trim().max(254).optional(),
  orderNo: z.string().trim().max(40).optional(),
});
export type ManageOrderQuery = z.infer<typeof manageOrderQuery>;

export const adminOrderDto = orderDto.extend({
  userId: z.number().int(),
  userEmail: z.string(),
  providerRef: z.string().nullable(),
  paidBy: z.enum(PAID_BY).nullable(),
});
export type AdminOrderDto = z.infer<typeof adminOrderDto>;

export const orderVerifyBody = z.strictObject({ orderNo: orderNoField });

export const rechargeBody = z.strictObject({
  userId: entityId,
  bytes: z.number().int().min(1, { error: 'validation.bytes' }).max(Number.MAX_SAFE_INTEGER),
  validityDays: z.number().int().min(1, { error: 'validation.validityDays' }).max(3650).default(30),
  note: z.string().trim().min(1, { error: 'validation.note' }).max(200),
});
export type RechargeBody = z.infer<typeof rechargeBody>;

/** A payment that arrived but could not be matched to an open order: the admin decides. */
/** Why a verified payment was kept for the admin's review instead of credited (docs/decisions.md, Selling). */
export const REVIEW_REASONS = ['ORDER_UNKNOWN', 'METHOD_MISMATCH', 'AMOUNT_MISMATCH', 'CURRENCY_MISMATCH', 'ORDER_NOT_PENDING', 'ALREADY_PAID', 'MERCHANT_MISMATCH', 'PAID_BEFORE_ORDER'] as const;
export type ReviewReason = (typeof REVIEW_REASONS)[number];

export const paymentReviewDto = z.object({
  id: z.number().int(),
  provider: payMethod,
  eventId: z.string(),
  orderNo: z.string().nullable(),
  amount: z.string(),
  asset: z.string(),
  /** One of REVIEW_REASONS; a string so a code added later never breaks an older console. */
  reason: z.string(),
  status: z.enum(['open', 'resolved']),
  createdAt: z.string(),
});
export type PaymentReviewDto = z.infer<typeof paymentReviewDto>;

// ---------- payment settings ----------

/**
 * Fields of each method's settings. `secrets` are stored encrypted and only ever answered masked;
 * `settings` are plain. The admin page renders its form from this table.
 */
export const PAY_METHOD_FIELDS = {
  sandbox: { settings: [], secrets: [] },
  manual: { settings: ['instructionsEn', 'instructionsZhCn', 'instructionsZh'], secrets: [] },
  'usdt-trc20': { settings: ['address', 'apiBase'], secrets: ['apiKey'] },
  alipay: { settings: ['appId', 'sellerId', 'gateway', 'alipayPublicKey'], secrets: ['privateKey'] },
  card: { settings: ['currency'], secrets: ['secretKey', 'webhookSecret'] },
} as const satisfies Record<PayMethod, { settings: readonly string[]; secrets: readonly string[] }>;

export const payConfigDto = z.object({
  method: payMethod,
  enabled: z.boolean(),
  settings: z.record(z.string(), z.string()),
  /** Masked: `••••1234` when set, null when not. */
  secrets: z.record(z.string(), z.string().nullable()),
  /** False where the method cannot run here (sandbox in production). */
  available: z.boolean(),
  /** Stored secrets could not be decrypted (APP_SECRET changed): they count as unset until entered again. */
  needsReentry: z.boolean(),
});
export type PayConfigDto = z.infer<typeof payConfigDto>;

export const payConfigBody = z.strictObject({
  method: payMethod,
  enabled: z.boolean(),
  settings: z.record(z.string(), z.string().max(8000)).default({}),
  /** A key present with a value replaces the secret, with "" clears it; an absent key keeps it. */
  secrets: z.record(z.string(), z.string().max(8000)).default({}),
});
export type PayConfigBody = z.infer<typeof payConfigBody>;

export const exportTicketResponse = z.object({ ticket: z.string() });

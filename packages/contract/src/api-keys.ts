import { z } from 'zod';

/*
 * The customer's API keys (DESIGN §14; docs/api.md#programs): named, scoped credentials a program sends as
 * `Authorization: Bearer <key>` in place of the console's session token.
 */

/**
 * What a key may do. `read`: usage, orders, accounts and static IPs; `proxies`: proxy accounts, allowlists,
 * static IPs' remarks and replacement; `extract`: extraction keys; `buy`: orders, within the key's daily cap.
 */
export const API_KEY_SCOPES = ['read', 'proxies', 'extract', 'buy'] as const;
export type ApiKeyScope = (typeof API_KEY_SCOPES)[number];

/** Keys one customer may hold at once (revoked ones do not count). */
export const API_KEYS_MAX = 20;
/** Caller addresses one key may be limited to. */
export const API_KEY_ALLOWLIST_MAX = 20;

export const apiKeyDto = z.object({
  id: z.number().int(),
  name: z.string(),
  /** The key's first characters, as lists and logs name it; the rest is never shown again. */
  prefix: z.string(),
  scopes: z.array(z.enum(API_KEY_SCOPES)),
  expiresAt: z.string().nullable(),
  /** Caller addresses (IPs or CIDRs) the key is taken from; empty: any. */
  allowlist: z.array(z.string()),
  /** Most a key with `buy` may spend per UTC day, in minor units of the shop's currency. */
  dailySpendCap: z.number().int().nullable(),
  createdAt: z.string(),
  lastUsedAt: z.string().nullable(),
  lastUsedIp: z.string().nullable(),
  /** Requests made with the key today (UTC). */
  callsToday: z.number().int(),
  /** What orders placed with the key today add up to, in minor units (unpaid ones included while open). */
  spentToday: z.number().int(),
});
export type ApiKeyDto = z.infer<typeof apiKeyDto>;

/** A new key: its secret in `key`, in this answer only. */
export const createdApiKeyDto = apiKeyDto.extend({ key: z.string() });
export type CreatedApiKeyDto = z.infer<typeof createdApiKeyDto>;

export const createApiKeyBody = z
  .strictObject({
    name: z.string({ error: 'validation.apiKeyName' }).trim().min(1, { error: 'validation.apiKeyName' }).max(64, { error: 'validation.apiKeyName' }),
    scopes: z
      .array(z.enum(API_KEY_SCOPES, { error: 'validation.apiKeyScopes' }), { error: 'validation.apiKeyScopes' })
      .min(1, { error: 'validation.apiKeyScopes' })
      .max(API_KEY_SCOPES.length, { error: 'validation.apiKeyScopes' }),
    /** An instant in the future (ISO 8601); absent or null: the key does not expire. */
    expiresAt: z.iso.datetime({ offset: true, error: 'validation.apiKeyExpiry' }).nullable().optional(),
    /** IPv4, IPv6 or CIDR; absent or empty: callers from anywhere. */
    allowlist: z
      .array(z.string({ error: 'validation.allowlistAddress' }).trim().min(1, { error: 'validation.allowlistAddress' }).max(64, { error: 'validation.allowlistAddress' }))
      .max(API_KEY_ALLOWLIST_MAX, { error: 'validation.apiKeyAllowlistMax' })
      .optional(),
    dailySpendCap: z.number({ error: 'validation.apiKeySpendCap' }).int({ error: 'validation.apiKeySpendCap' }).min(1, { error: 'validation.apiKeySpendCap' }).max(100_000_000, { error: 'validation.apiKeySpendCap' }).nullable().optional(),
  })
  // A key that buys does so within a cap: a leaked key must not be able to spend without bound.
  .refine((b) => !b.scopes.includes('buy') || (b.dailySpendCap ?? null) !== null, { error: 'validation.apiKeySpendCapRequired', path: ['dailySpendCap'] });
export type CreateApiKeyBody = z.infer<typeof createApiKeyBody>;

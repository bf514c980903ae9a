import { z } from 'zod';
import { entityId } from './ids';

/** Proxy sub-account names are global, being proxy usernames: `[a-z0-9_]{4,32}` (docs/business-rules.md#proxy-accounts). */
export const proxyUsernameField = z
  .string({ error: 'validation.proxyUsername' })
  .trim()
  .toLowerCase()
  .regex(/^[a-z0-9_]{4,32}$/, { error: 'validation.proxyUsername' });

/** Letters and digits only: the password travels inside proxy URLs and `user:pass` lines unescaped. */
export const proxyPasswordField = z
  .string({ error: 'validation.proxyPassword' })
  .regex(/^[A-Za-z0-9]{8,32}$/, { error: 'validation.proxyPassword' });

const limitBytes = z.number().int().min(1, { error: 'validation.bytes' }).max(Number.MAX_SAFE_INTEGER).nullable();
/** Concurrent gateway connections; null = the operator's default, or none (docs/gateway.md#concurrent-connections-per-account). */
const maxConnections = z
  .number({ error: 'validation.maxConnections' })
  .int({ error: 'validation.maxConnections' })
  .min(1, { error: 'validation.maxConnections' })
  .max(10_000, { error: 'validation.maxConnections' })
  .nullable();

export const proxyAccountDto = z.object({
  id: z.number().int(),
  username: z.string(),
  password: z.string(),
  status: z.enum(['active', 'disabled']),
  /** Cap on what this account may use; null = only the owner's balance limits it. */
  limitBytes: z.number().int().nullable(),
  usedBytes: z.number().int(),
  /** Concurrent connections this account may hold on a gateway; null = the operator's default (or none). */
  maxConnections: z.number().int().nullable(),
  remark: z.string().nullable(),
  createdAt: z.string(),
  /** Failed proxy logins against this account (wrong password), counted by the gateways. */
  loginFailures: z.number().int(),
  /** ISO 8601 time of the latest failed login; null when there was none. */
  lastLoginFailureAt: z.string().nullable(),
  /** Allowlisted addresses must still send the password (docs/gateway.md#allowlist). */
  requirePassword: z.boolean(),
  /** At its cap the account is refused (ACCOUNT_CAP) until the cap is raised; false: the cap only alerts. */
  pauseAtCap: z.boolean(),
  /** The start of the account's extraction key (the key itself is shown once); null: none made yet. */
  extractKeyPrefix: z.string().nullable(),
});
export type ProxyAccountDto = z.infer<typeof proxyAccountDto>;

export const createProxyAccountBody = z.strictObject({
  username: proxyUsernameField,
  password: proxyPasswordField,
  limitBytes: limitBytes.optional(),
  maxConnections: maxConnections.optional(),
  remark: z.string().trim().max(100).nullable().optional(),
  pauseAtCap: z.boolean().optional(),
});
export type CreateProxyAccountBody = z.infer<typeof createProxyAccountBody>;

export const updateProxyAccountBody = z.strictObject({
  password: proxyPasswordField.optional(),
  limitBytes: limitBytes.optional(),
  maxConnections: maxConnections.optional(),
  remark: z.string().trim().max(100).nullable().optional(),
  status: z.enum(['active', 'disabled']).optional(),
  requirePassword: z.boolean().optional(),
  pauseAtCap: z.boolean().optional(),
});
export type UpdateProxyAccountBody = z.infer<typeof updateProxyAccountBody>;

// ---------- usage ----------

export const usageQuery = z.object({
  granularity: z.enum(['hour', 'day']).default('day'),
  /** How far back: 1–90 days. */
  days: z.coerce.number().int().min(1).max(90).default(7),
  accountId: entityId.optional(),
});
export type UsageQuery = z.infer<typeof usageQuery>;

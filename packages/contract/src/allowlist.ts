import { z } from 'zod';
import { entityId } from './ids';
import { PROXY_PROTOCOLS, STICKY_DEFAULT_LIFE, STICKY_MAX_LIFE, STICKY_MIN_LIFE } from './proxy-line-format';
import { regionCountry, regionPlace } from './proxy-lines';

/*
 * Proxies for programs (DESIGN §13; docs/gateway.md#allowlist, #port-endpoints, #extraction): the
 * allowlist of a proxy account or static IP, and the extraction link.
 */

/** Entries per account by default (`ALLOWLIST_MAX`). */
export const ALLOWLIST_DEFAULT_MAX = 20;

export const allowlistEntryDto = z.object({
  id: z.number().int(),
  /** As it matches: `203.0.113.7`, `203.0.113.0/24`, `2001:db8::/64` (canonical form). */
  address: z.string(),
  label: z.string().nullable(),
  /** Exactly one of the two is set. */
  proxyAccountId: z.number().int().nullable(),
  staticProxyId: z.number().int().nullable(),
  createdAt: z.string(),
});
export type AllowlistEntryDto = z.infer<typeof allowlistEntryDto>;

export const allowlistQuery = z.object({
  proxyAccountId: entityId.optional(),
  staticProxyId: entityId.optional(),
});
export type AllowlistQuery = z.infer<typeof allowlistQuery>;

/** The list, and the address this request came from (what "add my current IP" would add). */
export const allowlistListDto = z.object({ items: z.array(allowlistEntryDto), callerAddress: z.string() });
export type AllowlistListDto = z.infer<typeof allowlistListDto>;

export const createAllowlistBody = z
  .strictObject({
    proxyAccountId: entityId.optional(),
    staticProxyId: entityId.optional(),
    /** IPv4, IPv6 or a CIDR no wider than /24 (IPv4) or /64 (IPv6); absent: the caller's own address. */
    address: z.string({ error: 'validation.allowlistAddress' }).trim().min(1, { error: 'validation.allowlistAddress' }).max(64, { error: 'validation.allowlistAddress' }).optional(),
    label: z.string().trim().max(100, { error: 'validation.allowlistLabel' }).nullable().optional(),
  })
  .refine((b) => (b.proxyAccountId === undefined) !== (b.staticProxyId === undefined), { error: 'validation.allowlistTarget', path: ['proxyAccountId'] });
export type CreateAllowlistBody = z.infer<typeof createAllowlistBody>;

/** A new extraction key, shown once. */
export const extractKeyDto = z.object({ key: z.string() });
/** The key of a customer's static IPs as lists show it: its prefix only (null: none made yet). */
export const extractKeyPrefixDto = z.object({ prefix: z.string().nullable() });

export const EXTRACT_FORMATS = ['txt', 'json', 'csv'] as const;
export type ExtractFormat = (typeof EXTRACT_FORMATS)[number];
export const EXTRACT_MAX_NUM = 500;
/** Named separators; any other `sep` (up to 16 characters) is used as written, with `\r \n \t` escapes read. */
export const EXTRACT_SEPARATORS = { crlf: '\r\n', lf: '\n', cr: '\r', tab: '\t' } as const;

/** `GET /api/extract`: the key, then what lines to hand out. */
export const extractQuery = z.object({
  key: z.string({ error: 'validation.extractKey' }).min(1, { error: 'validation.extractKey' }).max(128, { error: 'validation.extractKey' }),
  num: z.coerce.number({ error: 'validation.extractNum' }).int({ error: 'validation.extractNum' }).min(1, { error: 'validation.extractNum' }).max(EXTRACT_MAX_NUM, { error: 'validation.extractNum' }).default(1),
  country: regionCountry.optional(),
  state: regionPlace.optional(),
  city: regionPlace.optional(),
  life: z.coerce.number({ error: 'validation.extractLife' }).int({ error: 'validation.extractLife' }).min(STICKY_MIN_LIFE, { error: 'validation.extractLife' }).max(STICKY_MAX_LIFE, { error: 'validation.extractLife' }).default(STICKY_DEFAULT_LIFE),
  protocol: z.enum(PROXY_PROTOCOLS, { error: 'validation.extractProtocol' }).default('http'),
  format: z.enum(EXTRACT_FORMATS, { error: 'validation.extractFormat' }).default('txt'),
  sep: z.string().max(16, { error: 'validation.extractSep' }).optional(),
  /** Language of a refusal's message, for callers that cannot set `Api-Lang`. */
  lang: z.string().max(16).optional(),
});
export type ExtractQuery = z.infer<typeof extractQuery>;

/** One extracted proxy, as `format=json` answers it. */
export const extractedProxyDto = z.object({
  host: z.string(),
  port: z.number().int(),
  protocol: z.enum(PROXY_PROTOCOLS),
  /** Set when the line carries credentials (an account without an allowlist). */
  username: z.string().nullable(),
  password: z.string().nullable(),
  country: z.string().nullable(),
  state: z.string().nullable(),
  city: z.string().nullable(),
  /** The sticky session (null: a static IP's own port). */
  session: z.string().nullable(),
  /** When the session (or the static IP) ends. */
  expiresAt: z.string(),
  /** The line as `txt` writes it. */
  line: z.string(),
});
export type ExtractedProxyDto = z.infer<typeof extractedProxyDto>;

/** The separator `sep` names: a known name, an escaped sequence, or the text itself; default CRLF. */
export function extractSeparator(sep: string | undefined): string {
  if (sep === undefined || sep === '') return EXTRACT_SEPARATORS.crlf;
  if (sep in EXTRACT_SEPARATORS) return EXTRACT_SEPARATORS[sep as keyof typeof EXTRACT_SEPARATORS];
  return sep.replace(/\\([rnt])/g, (_, c: string) => ({ r: '\r', n: '\n', t: '\t' })[c]!);
}

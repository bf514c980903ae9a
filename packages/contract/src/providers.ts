import { z } from 'zod';

// ---------- upstream providers (admin, DESIGN §15, docs/gateway.md#providers) ----------

export const PROVIDER_STATUSES = ['enabled', 'paused'] as const;
export const PROVIDER_HEALTH_STATES = ['up', 'down', 'probing'] as const;
/** Upstream proxy schemes the gateway dials (exit-dialer.ts). */
export const PROVIDER_UPSTREAM_SCHEMES = ['http:', 'socks5:'] as const;
/** Upstreams one provider may list: a provider's whole pool fits in one request. */
export const PROVIDER_MAX_UPSTREAMS = 5000;

const countryCode = z
  .string()
  .trim()
  .toUpperCase()
  .regex(/^[A-Z]{2}$/, { error: 'validation.country' });

const place = z
  .string()
  .trim()
  .toLowerCase()
  .regex(/^[a-z0-9]{1,32}$/, { error: 'validation.regionCode' })
  .nullable()
  .default(null);

/** `http://user:pass@host:port` or `socks5://…`; the port is required (no scheme default is assumed). */
export const providerUpstreamUrl = z
  .string()
  .trim()
  .max(500)
  .refine(
    (v) => {
      try {
        const u = new URL(v);
        return (PROVIDER_UPSTREAM_SCHEMES as readonly string[]).includes(u.protocol) && u.hostname !== '' && u.port !== '' && u.pathname.replace(/\/$/, '') === '' && !u.search && !u.hash;
      } catch {
        return false;
      }
    },
    { error: 'validation.upstreamUrl' },
  );

export const providerUpstream = z.strictObject({
  /** In answers the password is masked (`****`); a masked URL saved back keeps the stored password. */
  url: providerUpstreamUrl,
  country: countryCode.nullable().default(null),
  state: place,
  city: place,
});
export type ProviderUpstream = z.infer<typeof providerUpstream>;

/** Cost of a GB carried through the provider, minor units of the shop currency, in force from `from` (UTC date). */
export const providerCost = z.strictObject({
  amount: z.number().int({ error: 'validation.amount' }).min(0, { error: 'validation.amount' }).max(100_000_000, { error: 'validation.amount' }),
  currency: z.string().trim().toUpperCase().regex(/^[A-Z]{3}$/, { error: 'validation.currency' }),
  from: z.iso.date({ error: 'validation.date' }),
});
export type ProviderCost = z.infer<typeof providerCost>;

export const providerBody = z
  .strictObject({
    name: z.string().trim().min(1, { error: 'validation.required' }).max(60),
    /** e.g. `http://USER[-country-{country}]-session-{session}:PASS@gate.example.net:7000`; "" = none. */
    template: z.string().trim().max(500).default(''),
    upstreams: z.array(providerUpstream).max(PROVIDER_MAX_UPSTREAMS).default([]),
    /** Countries served (ISO 3166-1 alpha-2); empty: every region. */
    regions: z.array(countryCode).max(300).default([]),
    /** 1 is tried first; a lower tier only while no provider of a higher one is healthy for the region. */
    priority: z.number().int().min(1, { error: 'validation.priority' }).max(100, { error: 'validation.priority' }).default(1),
    /** Share of traffic against the other providers of its priority. */
    weight: z.number().int().min(1, { error: 'validation.weight' }).max(1000, { error: 'validation.weight' }).default(100),
    costPerGb: providerCost,
    monthlyQuotaGb: z.number().positive({ error: 'validation.quota' }).max(1e9).nullable().default(null),
    status: z.enum(PROVIDER_STATUSES).default('enabled'),
  })
  .refine((b) => b.template !== '' || b.upstreams.length > 0, { error: 'validation.providerExit', path: ['template'] });
export type ProviderBody = z.infer<typeof providerBody>;

export const providerHealth = z.object({
  state: z.enum(PROVIDER_HEALTH_STATES),
  /** Share of dials that succeeded over the last window across gateways (0–1); null: none were made. */
  successRate: z.number().nullable(),
  connectP50Ms: z.number().nullable(),
  connectP95Ms: z.number().nullable(),
  /** Dials counted in that window. */
  attempts: z.number().int(),
  lastProbeAt: z.string().nullable(),
  /** The last active probe: its latency, the exit's country, and whether that is not the one asked for. */
  probeLatencyMs: z.number().nullable(),
  probeCountry: z.string().nullable(),
  countryMismatch: z.boolean(),
  lastError: z.string().nullable(),
  /** When the state last changed. */
  since: z.string().nullable(),
});
export type ProviderHealth = z.infer<typeof providerHealth>;

export const providerDto = z.object({
  id: z.number().int(),
  name: z.string(),
  template: z.string(),
  upstreams: z.array(z.object({ url: z.string(), country: z.string().nullable(), state: z.string().nullable(), city: z.string().nullable() })),
  regions: z.array(z.string()),
  priority: z.number().int(),
  weight: z.number().int(),
  /** The cost entered last (the latest `from`; it may start in the future). */
  costPerGb: z.object({ amount: z.number().int(), currency: z.string(), from: z.string() }),
  /** Every cost, oldest first: past usage keeps the cost of its day. */
  costs: z.array(z.object({ amount: z.number().int(), currency: z.string(), from: z.string() })),
  monthlyQuotaGb: z.number().nullable(),
  status: z.enum(PROVIDER_STATUSES),
  health: providerHealth,
  usage: z.object({ bytesToday: z.number().int(), bytesMonth: z.number().int() }),
});
export type ProviderDto = z.infer<typeof providerDto>;

/** The gateway's own supply settings beside the providers: the demo's direct exit and the active probe. */
export const supplySettings = z.strictObject({
  /** Demo only: traffic leaves from the gateway host itself. */
  directEgress: z.boolean().default(false),
  /** Active probes go through each provider to this URL (answering JSON with the exit's country); "" = none. */
  checkUrl: z
    .string()
    .trim()
    .max(500)
    .refine((v) => v === '' || /^https?:\/\/[^/?#\s]+/.test(v), { error: 'validation.checkUrl' })
    .default(''),
  /** How often each provider is probed, seconds. */
  probeSeconds: z.number().int().min(15, { error: 'validation.probeSeconds' }).max(3600, { error: 'validation.probeSeconds' }).default(60),
});
export type SupplySettings = z.infer<typeof supplySettings>;

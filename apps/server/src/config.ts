import { randomBytes } from 'node:crypto';
import { accessSync, constants, existsSync, linkSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { isIP } from 'node:net';
import path from 'node:path';
import { z } from 'zod';

const port = z.coerce.number().int().min(1).max(65535);
/** Milliseconds of a client-facing deadline: long enough for a slow mobile link, short enough to matter. */
const deadlineMs = z.coerce.number().int().min(100).max(600_000);
const count = z.coerce.number().int().min(1).max(1_000_000);
/** `10000-10999`: at most 5,000 ports, each a listening socket. */
const portRange = z
  .string()
  .regex(/^\d{1,5}-\d{1,5}$/, 'must be FIRST-LAST, e.g. 10000-10999')
  .transform((s) => s.split('-').map(Number) as [number, number])
  .refine(([first, last]) => first >= 1 && last <= 65535 && first <= last && last - first < 5000, 'must be ports 1-65535, FIRST <= LAST, at most 5000 of them');
/** A link the console opens for customers: only http(s), never `javascript:` or `data:`. */
const webUrl = z.url({ protocol: /^https?$/, error: 'must be an http:// or https:// URL' });

/** Names proxy-addr (Fastify's trustProxy) understands in place of an address. */
const PROXY_RANGE_NAMES = ['loopback', 'linklocal', 'uniquelocal'];
const isProxyAddress = (entry: string): boolean => {
  if (PROXY_RANGE_NAMES.includes(entry)) return true;
  const [ip = '', bits, ...rest] = entry.split('/');
  const version = isIP(ip);
  if (version === 0 || rest.length > 0) return false;
  if (bits === undefined) return true;
  return /^\d{1,3}$/.test(bits) && Number(bits) <= (version === 4 ? 32 : 128);
};

/**
 * Which X-Forwarded-For entries to believe. Off by default: otherwise any client could name its own IP
 * and escape per-IP limits. A hop count or the proxies' addresses, as Fastify's trustProxy takes them;
 * `true` (trust every hop) is refused because the left-most entry is whatever the client wrote.
 */
const trustProxy = z
  .string()
  .trim()
  .optional()
  .transform((value, ctx): false | number | string[] => {
    if (value === undefined || ['false', 'off', 'no', '0'].includes(value.toLowerCase())) return false;
    if (/^\d+$/.test(value)) return Number(value);
    const entries = value.split(',').map((e) => e.trim());
    if (entries.every(isProxyAddress)) return entries;
    ctx.addIssue({
      code: 'custom',
      message:
        value.toLowerCase() === 'true'
          ? 'true would believe any client\'s X-Forwarded-For; give the number of proxies in front (e.g. 1) or their addresses'
          : 'must be a number of proxy hops (e.g. 1) or a comma-separated list of proxy addresses or CIDR ranges (e.g. 10.0.0.0/8,127.0.0.1)',
    });
    return z.NEVER;
  });

const envSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  PORT: port.default(8080),
  HOST: z.string().min(1).default('0.0.0.0'),
  /** Proxies in front of the API whose X-Forwarded-For is believed (client IP for limits, lockout, logs). */
  TRUST_PROXY: trustProxy,
  DATA_DIR: z.string().min(1).default('./data'),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, 'must be a postgres:// or postgresql:// URL')
    .optional(),
  /** Cut-off events between processes (pub/sub); unset: in-process only, and the gateways poll the store. */
  REDIS_URL: z.string().regex(/^rediss?:\/\/\S+$/, 'must be a redis:// or rediss:// URL').optional(),
  /** Starts Redis channel names, so deployments sharing one Redis never hear each other's events. */
  REDIS_PREFIX: z.string().regex(/^[\w.:-]{1,64}$/, 'must be 1-64 letters, digits, _ . : or -').default('resi:'),
  APP_NAME: z.string().min(1).max(64).default('Resi Console'),
  APP_SECRET: z.string().min(32, 'must be at least 32 characters').optional(),
  /** Where customers reach the console (links in mail, payment return and notify URLs); unset: http://localhost:PORT. */
  PUBLIC_URL: z.url().optional(),
  /** The support link the console shows; unset: no "Contact support" link at all. */
  SUPPORT_URL: z.url().optional(),
  TUTORIAL_URL: z.string().min(1).default('/manage/legal/tutorial.en.html'),
  /** Who runs the service, as the terms and privacy notice name it; unset: APP_NAME. */
  OPERATOR_NAME: z.string().trim().min(1).max(120).optional(),
  /** How customers reach the operator (an email address, or a line of text), shown in the terms, privacy notice and tutorial. */
  OPERATOR_CONTACT: z.string().trim().min(1).max(200).optional(),
  /** The operator's own knowledge base, FAQ, blog and toolbox pages, linked from the built-in ones. */
  KNOWLEDGE_BASE_URL: webUrl.optional(),
  FAQ_URL: webUrl.optional(),
  BLOG_URL: webUrl.optional(),
  TOOLBOX_URL: webUrl.optional(),
  GATEWAY_HTTP_PORT: port.default(7777),
  GATEWAY_SOCKS_PORT: port.default(7778),
  GATEWAY_PUBLIC_HOST: z.string().min(1).default('localhost'),
  /** A gateway client's request head or SOCKS5 handshake must be complete within this (docs/gateway.md#connection-limits-and-failed-logins). */
  GATEWAY_HANDSHAKE_MS: deadlineMs.default(10_000),
  /** Unauthenticated gateway connections per source IP and listener. */
  GATEWAY_MAX_PENDING_PER_IP: count.default(64),
  /** Unauthenticated gateway connections per /24 (IPv4) or /64 (IPv6) and listener; addresses that logged in lately are exempt. */
  GATEWAY_MAX_PENDING_PER_NET: count.default(256),
  /** Open client connections per gateway listener; unset: a fifth of the descriptor limit (lib/descriptor-limit.ts). */
  GATEWAY_MAX_CONNECTIONS: count.optional(),
  /** Unauthenticated connections per gateway listener, their share of GATEWAY_MAX_CONNECTIONS; unset: half of it. */
  GATEWAY_MAX_PENDING: count.optional(),
  /** The API's request head must be complete within this; the whole request within API_REQUEST_TIMEOUT_MS. */
  API_HEADERS_TIMEOUT_MS: deadlineMs.default(10_000),
  API_REQUEST_TIMEOUT_MS: deadlineMs.default(30_000),
  /** Open API connections per socket peer address (proxies TRUST_PROXY names are exempt). */
  API_MAX_CONNECTIONS_PER_IP: count.default(128),
  /** Allowlisted addresses per proxy account or static IP (docs/gateway.md#allowlist). */
  ALLOWLIST_MAX: z.coerce.number().int('must be a whole number').min(1).max(1000).default(20),
  /** How often usage is measured against customers' alert thresholds (docs/business-rules.md#usage-alerts). */
  ALERT_CHECK_SECONDS: z.coerce.number().int('must be a whole number').min(1).max(3600).default(20),
  /** Requests per minute one API key may make, across every API process when REDIS_URL is set (docs/api.md#programs). */
  API_KEY_RATE_LIMIT: z.coerce.number().int('must be a whole number').min(1).max(1_000_000).default(600),
  /**
   * Private, loopback and other non-public addresses may be allowlisted: for a gateway its customers reach
   * inside a private network (and tests on loopback). Off: only public addresses, so no customer can claim
   * a load balancer's or a NAT's inside address and with it everyone's unauthenticated connections.
   */
  ALLOWLIST_PRIVATE_ADDRESSES: z.stringbool().default(false),
  /** Port endpoints (docs/gateway.md#port-endpoints): `FIRST-LAST` gateway ports, one sticky session each; unset = off. */
  GATEWAY_PORT_RANGE_HTTP: portRange.optional(),
  GATEWAY_PORT_RANGE_SOCKS: portRange.optional(),
  /** Live port leases one customer may hold per range: past it, their own oldest are reused, so no one holds the whole range. */
  PORT_LEASES_PER_USER: z.coerce.number().int('must be a whole number').min(1).max(5000).default(100),
  /** Test-only: direct egress may reach loopback and private addresses (local origins). Refused in production. */
  GATEWAY_ALLOW_PRIVATE_DESTINATIONS: z.stringbool().default(false),
  /**
   * Byte budgets (docs/gateway.md#byte-budgets): bytes an account's connections may carry on one gateway between two exact
   * checks of its balance and cap. 256 KiB (more than a socket read, 64 KiB) to 1 GiB.
   */
  GATEWAY_LEASE_BYTES: z.coerce
    .number()
    .int('must be a whole number of bytes')
    .min(262_144, 'must be at least 262144 (256 KiB)')
    .max(1024 ** 3, 'must be at most 1073741824 (1 GiB)')
    .default(1024 * 1024),
  /** Concurrent connections a proxy account may hold when it sets no limit of its own; unset: none. */
  GATEWAY_ACCOUNT_MAX_CONNECTIONS: z.coerce.number().int('must be a whole number').min(1, 'must be at least 1').max(1_000_000).optional(),
  /**
   * Byte budgets shared between gateway processes through reservations in the store (docs/gateway.md):
   * `auto` = on with PostgreSQL (the only store several processes can share), off on SQLite.
   */
  GATEWAY_SHARED_BUDGETS: z.enum(['auto', 'on', 'off']).default('auto'),
  /** The address the curl line of Get Proxy fetches through the proxy: an IP echo service. */
  PROXY_CHECK_URL: z.url().default('https://ipinfo.io/json'),
  SMTP_URL: z.string().regex(/^smtps?:\/\//, 'must be an smtp:// or smtps:// URL').optional(),
  /** Unset: `APP_NAME <no-reply@localhost>`. */
  MAIL_FROM: z.string().min(3).optional(),
  ADMIN_EMAIL: z.email().optional(),
  ADMIN_PASSWORD: z.string().min(8, 'must be at least 8 characters').optional(),
  /** Currency of every price (ISO 4217); amounts are kept in its minor unit. */
  CURRENCY: z.string().regex(/^[A-Z]{3}$/, 'must be a three-letter ISO 4217 code such as USD').default('USD'),
  /** Days an expired static IP stays with its customer, refused but renewable unchanged (docs/business-rules.md#static-residential-ips). */
  STATIC_GRACE_DAYS: z.coerce.number().int('must be a whole number of days').min(0).max(90).default(3),
  /** Days a released static IP rests before anyone else can buy it. */
  STATIC_COOLDOWN_DAYS: z.coerce.number().int('must be a whole number of days').min(0).max(365).default(7),
  /** Replacements a customer may ask for per static IP in any 30 days. */
  STATIC_REPLACEMENTS: z.coerce.number().int('must be a whole number').min(0).max(100).default(1),
  /** Static IPs one customer's unpaid orders may hold reserved at once, over all regions. */
  STATIC_UNPAID_MAX_IPS: z.coerce.number().int('must be a whole number').min(1).max(100_000).default(100),
  /** Percent of a region and line's available static IPs one customer's unpaid orders may hold (rounded up). */
  STATIC_UNPAID_MAX_SHARE: z.coerce.number().int('must be a whole number of percent').min(1).max(100).default(50),
  /** A customer's `static.expiring` webhook is sent once per static IP when its expiry is this many days away or less (docs/api.md#webhooks). */
  WEBHOOK_STATIC_EXPIRING_DAYS: z.coerce.number().int('must be a whole number of days').min(1).max(30).default(3),
  /** Seconds between two reads of the TRON API by the USDT payment watcher. */
  USDT_POLL_SECONDS: z.coerce.number().int().min(1).max(3600).default(15),
  /**
   * Prometheus metrics (`GET /metrics`) on a listener of their own; unset: no metrics at all. Never on
   * `PORT`, so the API's public address cannot expose them by accident.
   */
  METRICS_PORT: port.optional(),
  /** Where the metrics listener binds: loopback unless the scraper sits on another host. */
  METRICS_HOST: z.string().min(1).default('127.0.0.1'),
  /** `GET /healthz` and `GET /readyz` on a listener of their own, for processes without the API (`--role=gateway`); unset: none. */
  HEALTH_PORT: port.optional(),
  /** Demo catalogue and sandbox payments on first start: `auto` = only on the embedded SQLite store. */
  DEMO_DATA: z.enum(['auto', 'on', 'off']).default('auto'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /** Test-only: when set, this answer passes every captcha (docs/configuration.md). Refused in production. */
  CAPTCHA_TEST_ANSWER: z.string().min(1).optional(),
  /** Test-only: the Stripe SDK calls this base URL (a local fake Stripe) instead of Stripe. Refused in production. */
  STRIPE_API_BASE: z.url({ protocol: /^https?$/ }).optional(),
});

export type Env = z.infer<typeof envSchema>;
export interface Config extends Omit<Env, 'PUBLIC_URL' | 'MAIL_FROM'> {
  PUBLIC_URL: string;
  MAIL_FROM: string;
  APP_SECRET: string;
  dataDir: string;
  webDist: string | null;
}

export class ConfigError extends Error {}

/**
 * The demo: main.ts seeds the demo catalogue and its sandbox method, and the sandbox's pretend money counts
 * as money (it earns commission, docs/business-rules.md#commission). `auto` is the embedded SQLite store.
 */
export function isDemo(config: Pick<Config, 'DEMO_DATA'>, dialect: 'sqlite' | 'postgres'): boolean {
  return config.DEMO_DATA === 'on' || (config.DEMO_DATA === 'auto' && dialect === 'sqlite');
}

/** Reads and checks the environment; a bad value throws a ConfigError naming the variable. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env, webDist: string | null = null): Config {
  const input = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== ''));
  const parsed = envSchema.safeParse(input);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`);
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  const cfg = parsed.data;
  if (cfg.NODE_ENV === 'production' && cfg.CAPTCHA_TEST_ANSWER) {
    throw new ConfigError('Invalid configuration:\n  CAPTCHA_TEST_ANSWER: test-only switch, refused when NODE_ENV=production');
  }
  if (cfg.NODE_ENV === 'production' && cfg.GATEWAY_ALLOW_PRIVATE_DESTINATIONS) {
    throw new ConfigError('Invalid configuration:\n  GATEWAY_ALLOW_PRIVATE_DESTINATIONS: test-only switch, refused when NODE_ENV=production');
  }
  if (cfg.NODE_ENV === 'production' && cfg.STRIPE_API_BASE) {
    throw new ConfigError('Invalid configuration:\n  STRIPE_API_BASE: test-only switch, refused when NODE_ENV=production');
  }
  if (cfg.API_HEADERS_TIMEOUT_MS > cfg.API_REQUEST_TIMEOUT_MS) {
    throw new ConfigError('Invalid configuration:\n  API_HEADERS_TIMEOUT_MS: must not be longer than API_REQUEST_TIMEOUT_MS');
  }
  for (const name of ['METRICS_PORT', 'HEALTH_PORT'] as const) {
    const taken = (['PORT', 'GATEWAY_HTTP_PORT', 'GATEWAY_SOCKS_PORT', 'METRICS_PORT', 'HEALTH_PORT'] as const).filter((other) => other !== name && cfg[other] === cfg[name]);
    if (cfg[name] !== undefined && taken.length > 0) {
      throw new ConfigError(`Invalid configuration:\n  ${name}: must be a port of its own (it equals ${taken.join(' and ')})`);
    }
  }
  const ranges = [cfg.GATEWAY_PORT_RANGE_HTTP, cfg.GATEWAY_PORT_RANGE_SOCKS];
  const fixed = [cfg.PORT, cfg.GATEWAY_HTTP_PORT, cfg.GATEWAY_SOCKS_PORT, cfg.METRICS_PORT, cfg.HEALTH_PORT].filter((p): p is number => p !== undefined);
  for (const [i, name] of (['GATEWAY_PORT_RANGE_HTTP', 'GATEWAY_PORT_RANGE_SOCKS'] as const).entries()) {
    const r = ranges[i];
    if (!r) continue;
    const other = ranges[1 - i];
    if (fixed.some((p) => p >= r[0] && p <= r[1]) || (other && r[0] <= other[1] && other[0] <= r[1])) {
      throw new ConfigError(`Invalid configuration:\n  ${name}: must hold no other port of the server and not overlap the other range`);
    }
  }
  if ((cfg.ADMIN_EMAIL === undefined) !== (cfg.ADMIN_PASSWORD === undefined)) {
    throw new ConfigError('Invalid configuration:\n  ADMIN_EMAIL/ADMIN_PASSWORD: set both or neither');
  }
  const dataDir = path.resolve(cfg.DATA_DIR);
  try {
    mkdirSync(dataDir, { recursive: true });
    // mkdir succeeds on an existing directory we may not write to; SQLite and the outbox would fail later.
    accessSync(dataDir, constants.W_OK);
    return {
      ...cfg,
      PUBLIC_URL: (cfg.PUBLIC_URL ?? `http://localhost:${cfg.PORT}`).replace(/\/+$/, ''),
      MAIL_FROM: cfg.MAIL_FROM ?? `${cfg.APP_NAME} <no-reply@localhost>`,
      dataDir,
      webDist,
      APP_SECRET: cfg.APP_SECRET ?? loadOrCreateSecret(dataDir),
    };
  } catch (err) {
    if (err instanceof ConfigError) throw err;
    const reason = (err as NodeJS.ErrnoException).code ?? (err as Error).message;
    throw new ConfigError(`Invalid configuration:\n  DATA_DIR: ${dataDir} cannot be created or written (${reason})`);
  }
}

/**
 * First start without APP_SECRET: generate one into DATA_DIR so restarts keep encrypted settings readable.
 * The secret is written whole to a temporary file and then hard-linked to its name. The link fails when
 * the name exists, so of several processes starting at once exactly one secret wins, and none ever reads
 * a half-written file (which a plain exclusive create and write would allow).
 */
export function loadOrCreateSecret(dataDir: string): string {
  const file = path.join(dataDir, 'app-secret');
  if (!existsSync(file)) {
    const tmp = path.join(dataDir, `.app-secret-${process.pid}-${randomBytes(6).toString('hex')}`);
    try {
      writeFileSync(tmp, randomBytes(48).toString('base64url') + '\n', { mode: 0o600, flag: 'wx' });
      linkSync(tmp, file);
    } catch (err) {
      // EEXIST: another process linked its secret first; everyone reads that one below.
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    } finally {
      rmSync(tmp, { force: true });
    }
  }
  const secret = readFileSync(file, 'utf8').trim();
  if (secret.length < 32) {
    throw new ConfigError(
      `Invalid configuration:\n  APP_SECRET: ${file} holds ${secret.length} characters, at least 32 are needed; set APP_SECRET or put the right secret in that file`,
    );
  }
  return secret;
}

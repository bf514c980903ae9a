import rateLimit, { normalizeIP } from '@fastify/rate-limit';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { Redis } from 'ioredis';
import { MINUTE } from '../lib/clock';
import { sha256 } from '../lib/secrets';
import { AppError } from '../shared/errors';
import { scopeOf } from '../shared/key-scope';
import { addRouteHook } from '../shared/route-hooks';

/** Routes that name a limit in `config.limit` (see types.ts). */
export const RATE_LIMIT_NAMES = ['captcha', 'mail-code', 'register', 'login', 'reset-pass', 'buy', 'channel-visit', 'extract', 'webhook-replay'] as const;
export type RateLimitName = (typeof RATE_LIMIT_NAMES)[number];

export interface RateRule {
  max: number;
  windowMs: number;
}
/**
 * Per client IP (`request.ip`, so TRUST_PROXY decides what that is) and, where given, per signed-in user
 * and per extraction key (`?key=`, counted under its hash: a key never becomes a Redis key name).
 */
export type RateLimitRules = Record<RateLimitName, { perIp: RateRule; perUser?: RateRule; perKey?: RateRule }>;

/**
 * Requests per minute (docs/decisions.md, Rate limits). They sit above what a person does and well below
 * what a script does; the store's own limits (mail codes per hour, login lockout, open orders) still apply
 * beneath them.
 */
export const RATE_LIMITS: RateLimitRules = {
  captcha: { perIp: { max: 60, windowMs: MINUTE } },
  'mail-code': { perIp: { max: 10, windowMs: MINUTE } },
  register: { perIp: { max: 10, windowMs: MINUTE } },
  login: { perIp: { max: 30, windowMs: MINUTE } },
  'reset-pass': { perIp: { max: 10, windowMs: MINUTE } },
  buy: { perIp: { max: 20, windowMs: MINUTE }, perUser: { max: 10, windowMs: MINUTE } },
  // One landing per browser session: a person opens a few links a minute at most; a script fills the funnel.
  'channel-visit': { perIp: { max: 20, windowMs: MINUTE } },
  // Programs poll extraction links: 10 a second per key (DESIGN §13); per address only a ceiling on guessing.
  extract: { perIp: { max: 1200, windowMs: MINUTE }, perKey: { max: 10, windowMs: 1000 } },
  // A replay is an outbound request made while the caller waits: a person replays a few, a loop would make the
  // API a sender at someone's command (and fill the log).
  'webhook-replay': { perIp: { max: 60, windowMs: MINUTE }, perUser: { max: 20, windowMs: MINUTE } },
};

export interface RateLimitOptions {
  rules: RateLimitRules;
  /** REDIS_URL: counts shared by every API process. Unset: counted in this process. */
  redisUrl?: string;
  /** REDIS_PREFIX: starts every key, so deployments sharing one Redis keep their own counts. */
  prefix: string;
  /** API_KEY_RATE_LIMIT: requests per minute per API key, on every route a key may call. */
  apiKeyPerMinute: number;
}

type Limiter = ReturnType<FastifyInstance['createRateLimit']>;

/** Over the limit: a 429 in the API's envelope, with the wait in Retry-After and in the message. */
async function enforce(limiter: Limiter, request: FastifyRequest, reply: FastifyReply): Promise<void> {
  const result = await limiter(request);
  if (result.isAllowed || !result.isExceeded) return;
  const seconds = Math.max(1, result.ttlInSeconds);
  reply.header('retry-after', String(seconds));
  throw new AppError('RATE_LIMITED', { seconds });
}

/**
 * @fastify/rate-limit behind named limits: a route says `config: { limit: 'login' }` and gets the rules
 * of that name. Each limit is its own counter (the key names it), per IP before anything else runs and,
 * for `perUser`, per user once the access guard has signed the request in. With REDIS_URL the counts
 * live in Redis so they hold across API processes; a Redis outage lets requests through (with a warning)
 * rather than refusing every customer, and the store's own limits still hold meanwhile.
 */
export async function registerRateLimits(app: FastifyInstance, opts: RateLimitOptions): Promise<void> {
  let redis: Redis | undefined;
  if (opts.redisUrl) {
    // Fail fast instead of queueing: a request must not wait for Redis to come back.
    redis = new Redis(opts.redisUrl, { connectionName: 'resi-rate-limits', connectTimeout: 5000, commandTimeout: 1000, enableOfflineQueue: false, maxRetriesPerRequest: 0 });
    let warned = false;
    redis.on('error', (err: Error) => {
      if (!warned) app.log.warn({ err: err.message }, 'rate limits: Redis unreachable, requests pass unlimited until it is back');
      warned = true;
    });
    redis.on('ready', () => {
      warned = false;
    });
    app.addHook('onClose', async () => {
      redis?.disconnect();
    });
    // Until it is connected, requests would pass uncounted: start once it is, or once it has failed.
    const connected = redis;
    await new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, 5000);
      const done = () => {
        clearTimeout(timer);
        resolve();
      };
      connected.once('ready', done);
      connected.once('error', done);
    });
  }
  await app.register(rateLimit, { global: false, skipOnError: true, redis, nameSpace: `${opts.prefix}rate:` });

  // One limiter per name, shared by every route that names it (GET and its automatic HEAD count together).
  const limiters = new Map<RateLimitName, { perIp: Limiter; perUser: Limiter | null; perKey: Limiter | null }>();
  const limitersOf = (name: RateLimitName) => {
    let l = limiters.get(name);
    if (!l) {
      const { perIp, perUser, perKey } = opts.rules[name];
      l = {
        perIp: app.createRateLimit({ max: perIp.max, timeWindow: perIp.windowMs, keyGenerator: (req) => `${name}:ip:${normalizeIP(req.ip)}` }),
        perUser: perUser
          ? app.createRateLimit({
              max: perUser.max,
              timeWindow: perUser.windowMs,
              // The access guard has refused anonymous requests before a preHandler runs.
              keyGenerator: (req) => `${name}:user:${req.auth?.user.id ?? 'none'}`,
            })
          : null,
        perKey: perKey
          ? app.createRateLimit({
              max: perKey.max,
              timeWindow: perKey.windowMs,
              keyGenerator: (req) => `${name}:key:${sha256(String((req.query as { key?: unknown }).key ?? ''))}`,
            })
          : null,
      };
      limiters.set(name, l);
    }
    return l;
  };

  // Each API key has its own budget over every route, counted once the guard has named the key.
  const perApiKey = app.createRateLimit({ max: opts.apiKeyPerMinute, timeWindow: MINUTE, keyGenerator: (req) => `apikey:${req.apiKey?.id ?? 'none'}` });
  app.addHook('onRoute', (route) => {
    // Only where a key may come (a declared scope); a callback hook, so a session's request pays no promise for it.
    if (route.config?.access !== 'public' && scopeOf(route.schema)) {
      addRouteHook(route, 'preHandler', (request, reply, done) => {
        if (!request.apiKey) return done();
        enforce(perApiKey, request, reply).then(() => done(), done);
      });
    }
    const name = route.config?.limit;
    if (!name) return;
    const { perIp, perUser, perKey } = limitersOf(name);
    addRouteHook(route, 'onRequest', (request, reply) => enforce(perIp, request, reply));
    if (perKey) addRouteHook(route, 'onRequest', (request, reply) => enforce(perKey, request, reply));
    if (perUser) addRouteHook(route, 'preHandler', (request, reply) => enforce(perUser, request, reply));
  });
}

import swagger from '@fastify/swagger';
import Fastify, { type FastifyInstance } from 'fastify';
import { jsonSchemaTransform, validatorCompiler } from 'fastify-type-provider-zod';
import { type Config, isDemo } from '../config';
import type { Db } from '../db/database';
import { type Clock, systemClock } from '../lib/clock';
import type { CutoffBus } from '../lib/cutoff-bus';
import { jobsPlugin } from '../lib/jobs/jobs-plugin';
import type { Mailer } from '../mail/mailer';
import { adminModule } from '../modules/admin/plugin';
import { alertsModule } from '../modules/alerts/plugin';
import { allowlistModule } from '../modules/allowlist/plugin';
import { apiKeyServices, apiKeysModule } from '../modules/api-keys/plugin';
import { authModule, authSessions } from '../modules/auth/plugin';
import { catalogueModule } from '../modules/catalogue/plugin';
import { distributionModule } from '../modules/distribution/plugin';
import { exportRequests, exportsModule } from '../modules/exports/plugin';
import { extractionModule } from '../modules/extraction/plugin';
import { loginAnalysisModule } from '../modules/login-analysis/plugin';
import type { ModuleDeps } from '../modules/module-deps';
import { orderServices, ordersModule } from '../modules/orders/plugin';
import { paymentServices, paymentsModule } from '../modules/payments/plugin';
import { proxiesModule } from '../modules/proxies/plugin';
import { siteModule } from '../modules/site/plugin';
import { staticIpsModule } from '../modules/static-ips/plugin';
import { statisticsModule } from '../modules/statistics/plugin';
import { providersModule } from '../modules/providers/plugin';
import { trafficModule } from '../modules/traffic/plugin';
import { webhookServices, webhooksModule } from '../modules/webhooks/plugin';
import type { Metrics } from '../ops/metrics';
import { Readiness } from '../ops/readiness';
import { accessGuard } from './access-guard';
import { capConnectionsPerIp, logAcceptErrors, trustedPeers } from './connection-cap';
import { frameworkErrors, registerErrorHandling } from './error-handler';
import { healthRoutes } from './health-routes';
import { loggerOptions } from './log-redaction';
import { helmetHeaders } from './security-headers';
import { lazyRequestLogger, OneLinePerRequest } from './request-log';
import { RATE_LIMITS, type RateLimitRules, registerRateLimits } from './rate-limits';
import { langFromHeader, translator } from '../shared/i18n';
import { timeRequests } from './request-timing';
import { serializerCompiler } from './response-serializer';
import { registerSpa } from './spa';
import { registerLegalPages } from '../modules/site/legal-pages';

export interface AppDeps {
  config: Config;
  db: Db;
  mailer: Mailer;
  clock?: Clock;
  logger?: boolean | object;
  /** Where proxy-account cut-offs are announced to the gateways (main.ts: in-process or Redis). */
  cutoffs?: CutoffBus;
  /** Request limits per IP and user; tests of other things raise them (test/test-app.ts). */
  rateLimits?: RateLimitRules;
  /** METRICS_PORT's metrics: request durations by route and job runs are counted only when given. */
  metrics?: Metrics;
  /** What `/readyz` checks (main.ts adds Redis); default: the store and its migrations. */
  readiness?: Readiness;
}

/** proxy-addr's trust function for a hop count: the socket peer is hop 0, then X-Forwarded-For right to left. */
const trustHops = (hops: number) => (_addr: string, hop: number) => hop < hops;

export async function buildApp(deps: AppDeps): Promise<FastifyInstance> {
  const { config } = deps;
  const clock = deps.clock ?? systemClock;
  const app = Fastify({
    logger: loggerOptions(config.LOG_LEVEL, deps.logger),
    logController: new OneLinePerRequest(),
    childLoggerFactory: lazyRequestLogger,
    // X-Forwarded-For is believed only from the proxies TRUST_PROXY names (off by default): per-IP limits,
    // lockout and login logs use request.ip, which a client must not be able to choose.
    // Fastify ignores a bare hop count (it cannot vouch for the peer), so a count becomes "the first N hops".
    trustProxy: typeof config.TRUST_PROXY === 'number' ? trustHops(config.TRUST_PROXY) : config.TRUST_PROXY,
    bodyLimit: 1024 * 1024,
    frameworkErrors,
    // What one client may hold (docs/api.md#rate-and-connection-limits): a request head within API_HEADERS_TIMEOUT_MS,
    // the whole request within API_REQUEST_TIMEOUT_MS, checked every second (Node checks every 30 s by
    // default, which would let a slow head live four times as long). Idle kept-alive connections keep
    // Fastify's 72 s, longer than load balancers' idle timeouts (else they hit closed connections); the
    // cap per address bounds how many one client keeps.
    requestTimeout: config.API_REQUEST_TIMEOUT_MS,
    http: { headersTimeout: config.API_HEADERS_TIMEOUT_MS, requestTimeout: config.API_REQUEST_TIMEOUT_MS, connectionsCheckingInterval: 1000 },
  });
  app.decorate('connectionCap', capConnectionsPerIp(app.server, config.API_MAX_CONNECTIONS_PER_IP, trustedPeers(config.TRUST_PROXY)));
  logAcceptErrors(app.server, app.log);
  if (deps.metrics) timeRequests(app, deps.metrics.requestAnswered);
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);

  app.decorateRequest('lang', 'en');
  app.decorateRequest('t', null as never);
  // Hooks that never wait take a callback: an async one costs a promise and a turn on every request.
  app.addHook('onRequest', (request, _reply, done) => {
    request.lang = langFromHeader(request.headers['api-lang']);
    request.t = translator(request.lang);
    done();
  });
  registerErrorHandling(app);

  // helmet's headers, worked out once: they are the same for every answer, and running its middleware on
  // every request (or @fastify/helmet, which also rebuilds it each time) was several % of a signed-in GET /api/user.
  const securityHeaders = helmetHeaders({
    contentSecurityPolicy: {
      directives: {
        defaultSrc: ["'self'"],
        // Ant Design's CSS-in-JS injects <style> elements at run time.
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", 'data:'],
        scriptSrc: ["'self'"],
        connectSrc: ["'self'"],
        frameAncestors: ["'none'"],
        // Self-hosters often open the console over plain HTTP on an IP address first; upgrading its own
        // script and style requests to HTTPS would leave them with a blank page.
        upgradeInsecureRequests: null,
      },
    },
    crossOriginEmbedderPolicy: false,
  });
  // A JSON answer is never drawn as a page: of helmet's headers it takes those that act on any response.
  // The rest (opener and agent-cluster isolation, DNS prefetch, legacy IE, Flash and XSS-filter switches)
  // concern documents, and cost every API answer their bytes and Node's check of each value.
  const apiHeaders = pick(securityHeaders, ['content-security-policy', 'cross-origin-resource-policy', 'referrer-policy', 'strict-transport-security', 'x-content-type-options', 'x-frame-options']);
  // A built script or stylesheet is not a document either: of them only nosniff and the cross-origin resource
  // policy act on it. The rest cost each of a page's 60–90 files about 800 bytes, sent uncompressed on a
  // phone's first visit (docs/console.md#first-load).
  const assetHeaders = pick(securityHeaders, ['cross-origin-resource-policy', 'x-content-type-options']);
  app.addHook('onRequest', (request, reply, done) => {
    reply.headers(request.url.startsWith('/api/') ? apiHeaders : request.url.startsWith('/manage/assets/') ? assetHeaders : securityHeaders);
    done();
  });
  await app.register(swagger, {
    openapi: { info: { title: `${config.APP_NAME} API`, version: '1' }, components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer', description: 'A console session token' }, apiKey: { type: 'http', scheme: 'bearer', description: 'An API key (rk_…) with the scope listed on the operation (docs/api.md#programs)' } } } },
    transform: jsonSchemaTransform,
  });

  const db = deps.db.db;
  // Background jobs, each run by one API process at a time (lib/jobs); modules add theirs.
  await app.register(jobsPlugin, { db, clock, runs: deps.metrics?.jobs });
  const modules: ModuleDeps = { config, db, storeVersion: deps.db.storeVersion, clock, mailer: deps.mailer, cutoffs: deps.cutoffs, demo: isDemo(config, deps.db.dialect) };
  // What modules put on the app itself (fastify-plugin), before any route: the export hooks and the
  // sessions the access guard needs, then the services other modules use (docs/architecture.md).
  await app.register(exportRequests, modules);
  await app.register(authSessions, modules);
  await app.register(apiKeyServices, modules);
  await app.register(accessGuard);
  // After the guard: a route's limits run once its caller is known, and an unsigned request is refused
  // before it counts (each adds its hooks to routes as they are registered, in this order).
  await registerRateLimits(app, { rules: deps.rateLimits ?? RATE_LIMITS, redisUrl: config.REDIS_URL, prefix: config.REDIS_PREFIX, apiKeyPerMinute: config.API_KEY_RATE_LIMIT });
  await app.register(paymentServices, modules);
  await app.register(webhookServices, modules);
  await app.register(orderServices, modules);

  // Each module's routes, in its own encapsulated plugin under /api.
  await app.register(
    async (api) => {
      api.get('/docs', { config: { access: 'public' }, schema: { hide: true } }, async () => app.swagger());
      for (const module of [siteModule, authModule, distributionModule, exportsModule, adminModule, loginAnalysisModule, catalogueModule, ordersModule, paymentsModule, trafficModule, providersModule, proxiesModule, allowlistModule, apiKeysModule, alertsModule, webhooksModule, extractionModule, staticIpsModule, statisticsModule]) {
        await api.register(module, modules);
      }
    },
    { prefix: '/api' },
  );
  await app.register(healthRoutes, { readiness: deps.readiness ?? new Readiness({ db, log: app.log }) });
  await registerLegalPages(app, {
    webDist: config.webDist,
    appName: config.APP_NAME,
    operatorName: config.OPERATOR_NAME ?? config.APP_NAME,
    contact: config.OPERATOR_CONTACT ?? null,
    supportUrl: config.SUPPORT_URL ?? null,
    payMethods: () => app.payments.configs.enabledMethods(),
  });
  await registerSpa(app, config.webDist);
  return app;
}

const pick = (headers: Record<string, string>, names: readonly string[]) => Object.fromEntries(Object.entries(headers).filter(([name]) => names.includes(name)));

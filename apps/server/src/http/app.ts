import swagger from '@fastify/swagger';
import Fastify, { type FastifyInstance } from 'fastify';
import helmet from 'helmet';
import { jsonSchemaTransform, serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import type { Config } from '../config';
import type { Db } from '../db/database';
import { type Clock, systemClock } from '../lib/clock';
import type { CutoffBus } from '../lib/cutoff-bus';
import { untrackedJobs } from '../lib/job-runs';
import type { Mailer } from '../mail/mailer';
import { AuthService } from '../modules/auth/auth-service';
import { CaptchaService } from '../modules/auth/captcha-service';
import { LoginLogRepository } from '../modules/auth/login-log-repository';
import { MailCodeService } from '../modules/auth/mail-code-service';
import { authRoutes } from '../modules/auth/routes';
import { SessionService } from '../modules/auth/session-service';
import { UserRepository } from '../modules/auth/user-repository';
import { siteRoutes } from '../modules/site/routes';
import { adminRoutes } from '../modules/admin/routes';
import { UserListRepository } from '../modules/admin/user-list-repository';
import { DistributionRepository } from '../modules/distribution/distribution-repository';
import { distributionRoutes } from '../modules/distribution/routes';
import { registerExportRequests } from '../modules/exports/export-request';
import { ExportTicketService } from '../modules/exports/export-tickets';
import { exportRoutes } from '../modules/exports/routes';
import { AuditLogRepository } from '../modules/audit/audit-log-repository';
import { catalogueAdminRoutes } from '../modules/catalogue/admin-routes';
import { CatalogueAdminService } from '../modules/catalogue/catalogue-admin-service';
import { CatalogueRepository } from '../modules/catalogue/catalogue-repository';
import { catalogueRoutes } from '../modules/catalogue/routes';
import { orderAdminRoutes } from '../modules/orders/admin-routes';
import { scheduleOrderExpiry } from '../modules/orders/expiry-job';
import { Fulfilment } from '../modules/orders/fulfilment';
import { OrderRepository } from '../modules/orders/order-repository';
import { OrderService } from '../modules/orders/order-service';
import { PaymentReviewService } from '../modules/orders/payment-review-service';
import { orderRoutes } from '../modules/orders/routes';
import { PayConfigService } from '../modules/payments/pay-config-service';
import { paymentRoutes } from '../modules/payments/routes';
import { trafficRoutes } from '../modules/traffic/routes';
import { TrafficRepository, UsageRepository } from '../modules/traffic/traffic-repository';
import { UsageRecordRepository } from '../modules/traffic/usage-record-repository';
import { usageRecordRoutes } from '../modules/traffic/usage-record-routes';
import { ProxyAccountService } from '../modules/proxies/proxy-account-service';
import { proxyAccountRoutes } from '../modules/proxies/routes';
import { SupplyRepository } from '../modules/supply/supply-repository';
import { supplyRoutes } from '../modules/supply/routes';
import { SupplyService } from '../modules/supply/supply-service';
import { SEAL_LABELS, SealedBox } from '../lib/sealed-box';
import { createProviders } from '../payments/registry';
import { UsdtWatcher } from '../payments/usdt-watcher';
import { scheduleUsdtWatcher } from '../payments/usdt-schedule';
import type { Metrics } from '../ops/metrics';
import { Readiness } from '../ops/readiness';
import { registerAccessGuard } from './access-guard';
import { capConnectionsPerIp, logAcceptErrors, trustedPeers } from './connection-cap';
import { frameworkErrors, registerErrorHandling } from './error-handler';
import { healthRoutes } from './health-routes';
import { loggerOptions } from './log-redaction';
import { RATE_LIMITS, type RateLimitRules, registerRateLimits } from './rate-limits';
import { langFromHeader, translator } from '../shared/i18n';
import { timeRequests } from './request-timing';
import { registerSpa } from './spa';

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
    // X-Forwarded-For is believed only from the proxies TRUST_PROXY names (off by default): per-IP limits,
    // lockout and login logs use request.ip, which a client must not be able to choose.
    // Fastify ignores a bare hop count (it cannot vouch for the peer), so a count becomes "the first N hops".
    trustProxy: typeof config.TRUST_PROXY === 'number' ? trustHops(config.TRUST_PROXY) : config.TRUST_PROXY,
    bodyLimit: 1024 * 1024,
    frameworkErrors,
    // What one client may hold (DESIGN §6, for the API too): a request head within API_HEADERS_TIMEOUT_MS,
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
  app.addHook('onRequest', async (request) => {
    request.lang = langFromHeader(request.headers['api-lang']);
    request.t = translator(request.lang);
  });
  registerErrorHandling(app);

  // helmet itself, built once: @fastify/helmet builds a new helmet middleware from its options on every
  // request, which was 4 % of a signed-in GET /api/user. The headers are the same for every route.
  const securityHeaders = helmet({
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
  app.addHook('onRequest', (request, reply, done) => securityHeaders(request.raw, reply.raw, (err?: unknown) => done(err as Error | undefined)));
  await registerRateLimits(app, { rules: deps.rateLimits ?? RATE_LIMITS, redisUrl: config.REDIS_URL, prefix: config.REDIS_PREFIX });
  await app.register(swagger, {
    openapi: { info: { title: `${config.APP_NAME} API`, version: '1' }, components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } } } },
    transform: jsonSchemaTransform,
  });

  const db = deps.db.db;
  const users = new UserRepository(db);
  const sessions = new SessionService(db, clock);
  const captchas = new CaptchaService(db, clock, config.APP_SECRET, config.CAPTCHA_TEST_ANSWER);
  const mailCodes = new MailCodeService(db, clock, config.APP_SECRET, deps.mailer, config.APP_NAME);
  const auth = new AuthService(db, clock, users, sessions, captchas, mailCodes, new LoginLogRepository(db));

  // Before the guard: an export ticket signs its request in, then the guard applies the route's policy.
  const audit = new AuditLogRepository(db, clock);
  const exportTickets = new ExportTicketService(db, clock);
  registerExportRequests(app, exportTickets, clock, audit);
  registerAccessGuard(app, sessions);

  const production = config.NODE_ENV === 'production';
  const providers = createProviders({ stripeApiBase: config.STRIPE_API_BASE });
  const payConfigs = new PayConfigService(db, clock, audit, providers, config.APP_SECRET, production, app.log);
  const fulfilment = new Fulfilment(db, clock, audit);
  const orderRepo = new OrderRepository(db);
  const orders = new OrderService({ db, clock, audit, fulfilment, payConfigs, providers, publicUrl: config.PUBLIC_URL, production, currency: config.CURRENCY, log: app.log });
  const jobs = deps.metrics?.jobs ?? untrackedJobs;
  scheduleOrderExpiry(app, db, clock, jobs);
  const usdtWatcher = new UsdtWatcher({ clock, payConfigs, fulfilment, orders: orderRepo, log: app.log });
  app.decorate('usdtWatcher', usdtWatcher);
  scheduleUsdtWatcher(app, usdtWatcher, config.USDT_POLL_SECONDS * 1000, jobs);

  await app.register(
    async (api) => {
      api.get('/docs', { config: { access: 'public' }, schema: { hide: true } }, async () => app.swagger());
      await api.register(siteRoutes, {
        appName: config.APP_NAME,
        supportUrl: config.SUPPORT_URL ?? '',
        tutorialUrl: config.TUTORIAL_URL,
        links: {
          knowledgeBase: config.KNOWLEDGE_BASE_URL ?? null,
          faq: config.FAQ_URL ?? null,
          blog: config.BLOG_URL ?? null,
          toolbox: config.TOOLBOX_URL ?? null,
        },
      });
      await api.register(authRoutes, { auth, captchas, mailCodes, sessions });
      await api.register(distributionRoutes, { distribution: new DistributionRepository(db), publicUrl: config.PUBLIC_URL });
      await api.register(exportRoutes, { tickets: exportTickets });
      await api.register(adminRoutes, { userList: new UserListRepository(db) });
      await api.register(catalogueRoutes, { catalogue: new CatalogueRepository(db) });
      await api.register(catalogueAdminRoutes, { catalogue: new CatalogueAdminService(db, clock, audit), currency: config.CURRENCY });
      await api.register(orderRoutes, { orders, orderRepo });
      await api.register(orderAdminRoutes, { orders, orderRepo, reviews: new PaymentReviewService(db, clock, audit) });
      await api.register(paymentRoutes, { payConfigs, providers, orders, fulfilment, production });
      await api.register(trafficRoutes, { traffic: new TrafficRepository(db), usage: new UsageRepository(db), clock });
      await api.register(usageRecordRoutes, { records: new UsageRecordRepository(db), clock });
      const supply = new SupplyRepository(db, clock, new SealedBox(config.APP_SECRET, SEAL_LABELS.upstreamPassword));
      await api.register(supplyRoutes, { supply: new SupplyService(db, supply, audit), production });
      await api.register(proxyAccountRoutes, {
        accounts: new ProxyAccountService(db, clock, new SealedBox(config.APP_SECRET, SEAL_LABELS.proxyPassword), deps.cutoffs),
        endpoint: { host: config.GATEWAY_PUBLIC_HOST, httpPort: config.GATEWAY_HTTP_PORT, socksPort: config.GATEWAY_SOCKS_PORT, checkUrl: config.PROXY_CHECK_URL },
      });
    },
    { prefix: '/api' },
  );
  await app.register(healthRoutes, { readiness: deps.readiness ?? new Readiness({ db, log: app.log }) });
  await registerSpa(app, config.webDist);
  return app;
}

import type { FastifyPluginAsync } from 'fastify';
import { SEAL_LABELS, SealedBox } from '../../lib/sealed-box';
import { AuditLogRepository } from '../audit/audit-log-repository';
import { UserRepository } from '../auth/user-repository';
import { CatalogueRepository } from '../catalogue/catalogue-repository';
import type { ModuleDeps } from '../module-deps';
import { staticInventoryRoutes } from './admin-routes';
import { StaticAllocationRepository } from './allocation-repository';
import { StaticInventoryRepository } from './inventory-repository';
import { StaticInventoryService } from './inventory-service';
import { staticCustomerRoutes } from './routes';
import { StaticOrderService } from './static-order-service';
import { StaticProxyViews } from './static-proxy-views';
import { StaticStockRepository } from './stock-repository';
import { StaticLifecycle } from './lifecycle';
import { StaticReplacementService } from './replacement-service';
import { StaticRefunds } from './static-refunds';
import { StaticExpiryWebhooks } from './expiry-webhooks';
import { UpstreamHostCheck } from './upstream-host-check';

/**
 * Static residential IPs (docs/business-rules.md#static-residential-ips): the operator's inventory, and
 * customers buying and renewing through the orders module, whose fulfilment hands paid static orders
 * back to this module.
 */
export const staticIpsModule: FastifyPluginAsync<ModuleDeps> = async (app, { config, db, clock, cutoffs }) => {
  const audit = new AuditLogRepository(db, clock);
  const catalogue = new CatalogueRepository(db);
  const inventory = new StaticInventoryRepository(db, clock, new SealedBox(config.APP_SECRET, SEAL_LABELS.staticUpstreamPassword), config.CURRENCY);
  const allocations = new StaticAllocationRepository(db);
  const passwords = new SealedBox(config.APP_SECRET, SEAL_LABELS.proxyPassword);
  const orders = new StaticOrderService({
    clock,
    orders: app.orders.service,
    fulfilment: app.orders.fulfilment,
    inventory,
    allocations,
    catalogue,
    users: new UserRepository(db),
    audit,
    passwords,
    currency: config.CURRENCY,
    unpaid: { maxIps: config.STATIC_UNPAID_MAX_IPS, maxSharePercent: config.STATIC_UNPAID_MAX_SHARE },
  });
  new StaticRefunds(inventory, allocations, config.STATIC_COOLDOWN_DAYS).register(app.orders.refunds);
  const endpoint = { host: config.GATEWAY_PUBLIC_HOST, httpPort: config.GATEWAY_HTTP_PORT, socksPort: config.GATEWAY_SOCKS_PORT };
  const views = new StaticProxyViews(allocations, passwords, clock, endpoint, config.STATIC_REPLACEMENTS);
  const replacements = new StaticReplacementService(db, clock, inventory, allocations, views, config.STATIC_COOLDOWN_DAYS, cutoffs, app.webhooks);
  app.jobs.add(new StaticExpiryWebhooks(clock, allocations, app.webhooks, config.WEBHOOK_STATIC_EXPIRING_DAYS).job());
  app.jobs.add(new StaticLifecycle(db, clock, inventory, allocations, { graceDays: config.STATIC_GRACE_DAYS, cooldownDays: config.STATIC_COOLDOWN_DAYS }).job());
  await app.register(staticInventoryRoutes, { service: new StaticInventoryService(db, inventory, allocations, catalogue, audit, new UpstreamHostCheck(config.GATEWAY_ALLOW_PRIVATE_DESTINATIONS), cutoffs), inventory, stock: new StaticStockRepository(db), orders });
  await app.register(staticCustomerRoutes, { orders, views, replacements });
};

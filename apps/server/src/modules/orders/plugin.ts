import type { FastifyPluginAsync } from 'fastify';
import fp from 'fastify-plugin';
import { UsdtWatcher } from '../../payments/usdt-watcher';
import { AuditLogRepository } from '../audit/audit-log-repository';
import type { ModuleDeps } from '../module-deps';
import { orderAdminRoutes } from './admin-routes';
import { orderExpiryJob } from './expiry-job';
import { Fulfilment } from './fulfilment';
import { OrderRepository } from './order-repository';
import { OrderService } from './order-service';
import { PaymentReviewService } from './payment-review-service';
import { RefundService } from './refund-service';
import { orderRefundRoutes } from './refund-routes';
import { orderRoutes } from './routes';

declare module 'fastify' {
  interface FastifyInstance {
    /**
     * Orders and where their payments are recorded: the payment webhooks and the USDT watcher settle orders through them;
     * modules that sell through orders register how their items are fulfilled and taken back by a refund.
     */
    orders: { service: OrderService; repository: OrderRepository; fulfilment: Fulfilment; refunds: RefundService };
    /** Polls the TRON API for USDT payments; tests call `pollOnce()` instead of waiting for the job. */
    usdtWatcher: UsdtWatcher;
  }
}

/**
 * Orders and fulfilment on the app itself, for the payment routes; and the jobs that settle orders:
 * expiry, and the USDT watcher, which pays them from transfers it finds.
 */
export const orderServices = fp<ModuleDeps>(
  async (app, { config, db, clock, cutoffs }) => {
    const audit = new AuditLogRepository(db, clock);
    const fulfilment = new Fulfilment(db, clock, audit);
    const service = new OrderService({
      db,
      clock,
      audit,
      fulfilment,
      payConfigs: app.payments.configs,
      providers: app.payments.providers,
      publicUrl: config.PUBLIC_URL,
      production: config.NODE_ENV === 'production',
      currency: config.CURRENCY,
      log: app.log,
      apiKeys: app.apiKeys,
    });
    const repository = new OrderRepository(db);
    app.decorate('orders', { service, repository, fulfilment, refunds: new RefundService(db, clock, audit, cutoffs) });

    app.jobs.add(orderExpiryJob(db, clock));
    const watcher = new UsdtWatcher({ clock, payConfigs: app.payments.configs, fulfilment, orders: repository, log: app.log });
    app.decorate('usdtWatcher', watcher);
    app.jobs.add({ name: 'usdt_watcher', everyMs: config.USDT_POLL_SECONDS * 1000, run: () => watcher.pollOnce() });
  },
  { name: 'order-services', dependencies: ['payment-services', 'jobs', 'api-key-services'] },
);

/** A customer's buying and order history, and the admins' order desk and payment review. */
export const ordersModule: FastifyPluginAsync<ModuleDeps> = async (app, { db, clock }) => {
  const { service: orders, repository: orderRepo } = app.orders;
  await app.register(orderRoutes, { orders, orderRepo });
  await app.register(orderAdminRoutes, { orders, orderRepo, reviews: new PaymentReviewService(db, clock, new AuditLogRepository(db, clock)) });
  await app.register(orderRefundRoutes, { refunds: app.orders.refunds });
};

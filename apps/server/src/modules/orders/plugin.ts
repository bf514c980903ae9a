import type { FastifyPluginAsync } from 'fastify';
import fp from 'fastify-plugin';
import { AuditLogRepository } from '../audit/audit-log-repository';
import type { ModuleDeps } from '../module-deps';
import { orderAdminRoutes } from './admin-routes';
import { Fulfilment } from './fulfilment';
import { OrderRepository } from './order-repository';
import { OrderService } from './order-service';
import { PaymentReviewService } from './payment-review-service';
import { orderRoutes } from './routes';

declare module 'fastify' {
  interface FastifyInstance {
    /** Orders and where their payments are recorded: the payment webhooks and the USDT watcher settle orders through them. */
    orders: { service: OrderService; repository: OrderRepository; fulfilment: Fulfilment };
  }
}

/** Orders and fulfilment on the app itself, for the payment routes and the jobs that settle orders. */
export const orderServices = fp<ModuleDeps>(
  async (app, { config, db, clock }) => {
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
    });
    app.decorate('orders', { service, repository: new OrderRepository(db), fulfilment });
  },
  { name: 'order-services', dependencies: ['payment-services'] },
);

/** A customer's buying and order history, and the admins' order desk and payment review. */
export const ordersModule: FastifyPluginAsync<ModuleDeps> = async (app, { db, clock }) => {
  const { service: orders, repository: orderRepo } = app.orders;
  await app.register(orderRoutes, { orders, orderRepo });
  await app.register(orderAdminRoutes, { orders, orderRepo, reviews: new PaymentReviewService(db, clock, new AuditLogRepository(db, clock)) });
};

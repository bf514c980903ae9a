import type { PayMethod } from '@resi/contract';
import type { FastifyPluginAsync } from 'fastify';
import fp from 'fastify-plugin';
import { LeaseRepository } from '../../lib/jobs/lease-repository';
import { LeasePollThrottle } from '../../payments/poll-throttle';
import type { PaymentProvider } from '../../payments/provider';
import { createProviders } from '../../payments/registry';
import { AuditLogRepository } from '../audit/audit-log-repository';
import type { ModuleDeps } from '../module-deps';
import { PayConfigService } from './pay-config-service';
import { paymentRoutes } from './routes';

declare module 'fastify' {
  interface FastifyInstance {
    /** The payment methods: their saved settings and the adapters that take payments (orders start payments with them). */
    payments: { configs: PayConfigService; providers: Map<PayMethod, PaymentProvider> };
  }
}

/** The payment settings and adapters, on the app itself: the orders module starts and checks payments with them. */
export const paymentServices = fp<ModuleDeps>(
  async (app, { config, db, clock }) => {
    const providers = createProviders({ stripeApiBase: config.STRIPE_API_BASE, throttle: new LeasePollThrottle(new LeaseRepository(db)) });
    const configs = new PayConfigService(db, clock, new AuditLogRepository(db, clock), providers, config.APP_SECRET, config.NODE_ENV === 'production', app.log);
    app.decorate('payments', { configs, providers });
  },
  { name: 'payment-services' },
);

/** The methods customers may pick, their settings for admins, providers' webhooks and the sandbox page. */
export const paymentsModule: FastifyPluginAsync<ModuleDeps> = async (app, { config }) => {
  const { configs, providers } = app.payments;
  await app.register(paymentRoutes, { payConfigs: configs, providers, orders: app.orders.service, fulfilment: app.orders.fulfilment, production: config.NODE_ENV === 'production' });
};

import type { FastifyPluginAsync } from 'fastify';
import fp from 'fastify-plugin';
import { SEAL_LABELS, SealedBox } from '../../lib/sealed-box';
import type { ModuleDeps } from '../module-deps';
import { toOrderDto } from '../orders/order-dto';
import { webhookRoutes } from './routes';
import { WebhookDestinations, destinationRules } from './webhook-destination';
import { WebhookSender } from './webhook-sender';
import { WebhookService } from './webhook-service';

declare module 'fastify' {
  interface FastifyInstance {
    /** Customer webhooks: other modules report events with `app.webhooks.emit(userId, event, data, trx)`. */
    webhooks: WebhookService;
  }
}

/** How long a receiver has to answer one delivery. */
const SEND_TIMEOUT_MS = 10_000;
/** How often the delivery job looks for deliveries due: a new event goes out within this. */
const DELIVERY_EVERY_MS = 5_000;

/** The webhook service on the app itself, where every module that reports events finds it; and the delivery job. */
export const webhookServices = fp<ModuleDeps>(
  async (app, { config, db, clock, demo }) => {
    const destinations = new WebhookDestinations(destinationRules(config.NODE_ENV, demo));
    const userAgent = `${config.APP_NAME.replace(/[^\w.-]+/g, '-')}-Webhooks/1`;
    const service = new WebhookService(db, clock, new SealedBox(config.APP_SECRET, SEAL_LABELS.webhookSecret), destinations, new WebhookSender(destinations, userAgent, SEND_TIMEOUT_MS), app.log);
    app.decorate('webhooks', service);
    app.jobs.add({ name: 'webhook_delivery', everyMs: DELIVERY_EVERY_MS, run: () => service.deliverDue() });
  },
  { name: 'webhook-services', dependencies: ['jobs'] },
);

/** `…/user/webhooks`; and `order.paid`, written in the paying transaction through the orders module's hook. */
export const webhooksModule: FastifyPluginAsync<ModuleDeps> = async (app) => {
  app.orders.fulfilment.onPaid(async (trx, order) => {
    await app.webhooks.emit(order.user_id, 'order.paid', { order: toOrderDto(order) }, trx);
  });
  await app.register(webhookRoutes, { webhooks: app.webhooks });
};

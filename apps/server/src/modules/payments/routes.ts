import { envelope, errorBody, normalizeLang, payConfigBody, payConfigDto, payMethodsResponse, PAY_METHODS, type PayMethod } from '@resi/contract';
import type { FastifyPluginAsyncZod, ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { keyScope } from '../../shared/key-scope';
import { currentAuth } from '../../shared/request-context';
import { AppError } from '../../shared/errors';
import { NotifyRejected, type PaymentProvider } from '../../payments/provider';
import type { Fulfilment } from '../orders/fulfilment';
import type { OrderService } from '../orders/order-service';
import type { PayConfigService } from './pay-config-service';
import { sandboxRoutes } from './sandbox-page';

export interface PaymentRouteDeps {
  payConfigs: PayConfigService;
  providers: Map<PayMethod, PaymentProvider>;
  orders: OrderService;
  fulfilment: Fulfilment;
  production: boolean;
}

const errors = { 400: errorBody, 401: errorBody, 403: errorBody, 404: errorBody };

export const paymentRoutes: FastifyPluginAsyncZod<PaymentRouteDeps> = async (app, deps) => {
  const { payConfigs, providers, orders, fulfilment } = deps;

  app.get('/pay/methods', { config: { access: 'customer' }, schema: { security: keyScope('read'), tags: ['payments'], response: { 200: envelope(payMethodsResponse), ...errors } } }, async () => ({
    data: { methods: await payConfigs.enabledMethods() },
  }));

  app.get(
    '/manage/pay-config',
    { config: { access: 'admin' }, schema: { tags: ['admin', 'payments'], response: { 200: envelope(z.object({ methods: z.array(payConfigDto) })), ...errors } } },
    async () => ({ data: { methods: await payConfigs.list() } }),
  );

  app.post(
    '/manage/pay-config',
    { config: { access: 'admin' }, schema: { tags: ['admin', 'payments'], body: payConfigBody, response: { 200: envelope(payConfigDto), ...errors } } },
    async (request) => {
      const { user } = currentAuth(request);
      return { data: await payConfigs.save(request.body, { id: user.id, ip: request.ip }), message: request.t('messages.saved') };
    },
  );

  // Webhooks: signatures are over the exact bytes, so this scope keeps bodies as raw text.
  await app.register(async (scope) => {
    const notify = scope.withTypeProvider<ZodTypeProvider>();
    notify.removeAllContentTypeParsers();
    notify.addContentTypeParser('*', { parseAs: 'string', bodyLimit: 256 * 1024 }, (_req, body, done) => done(null, body));
    notify.post(
      '/pay/notify/:provider',
      { config: { access: 'public' }, schema: { tags: ['payments'], params: z.strictObject({ provider: z.enum(PAY_METHODS) }) } },
      async (request, reply) => {
        const provider = providers.get(request.params.provider);
        if (!provider?.verifyNotify) throw new AppError('NOT_FOUND');
        const ctx = await orders.context(provider.method, normalizeLang(undefined));
        try {
          const { events, reply: answer } = await provider.verifyNotify({ headers: request.headers, rawBody: String(request.body ?? '') }, ctx);
          for (const ev of events) {
            const outcome = await fulfilment.recordEvent(ev);
            request.log.info({ provider: ev.provider, eventId: ev.eventId, orderNo: ev.orderNo, result: outcome.result }, 'payment notification');
          }
          return reply.status(answer.status).type(answer.contentType ?? 'text/plain').send(answer.body);
        } catch (err) {
          if (!(err instanceof NotifyRejected)) throw err;
          // Unverifiable: refused and logged (docs/business-rules.md#payment-methods), never acted on.
          request.log.warn({ provider: provider.method, reason: err.reason }, 'payment notification rejected');
          return reply.status(400).type('text/plain').send('rejected');
        }
      },
    );
  });

  await app.register(sandboxRoutes, { orders, fulfilment, providers, production: deps.production });
};

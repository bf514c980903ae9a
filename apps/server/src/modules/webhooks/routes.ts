import { createWebhookBody, createdWebhookDto, emptyBody, envelope, errorBody, idParams, pageOf, updateWebhookBody, webhookDeliveryDto, webhookDeliveryParams, webhookDeliveryQuery, webhookDto } from '@resi/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { currentAuth } from '../../shared/request-context';
import type { WebhookService } from './webhook-service';

const errors = { 400: errorBody, 401: errorBody, 403: errorBody, 404: errorBody, 409: errorBody };

/**
 * `…/user/webhooks` (DESIGN §14, docs/api.md#webhooks): a customer's endpoints and their delivery log. No key
 * scope: webhooks are managed with a console session only, as API keys are (an endpoint's URL may carry a
 * credential of the receiver's, its log holds the receiver's answers, and a leaked key must not be able to
 * point the customer's events elsewhere).
 */
export const webhookRoutes: FastifyPluginAsyncZod<{ webhooks: WebhookService }> = async (app, { webhooks }) => {
  const config = { access: 'customer' as const };
  const tags = ['webhooks'];

  app.get('/user/webhooks', { config, schema: { tags, response: { 200: envelope(z.object({ items: z.array(webhookDto) })), ...errors } } }, async (request) => ({
    data: { items: await webhooks.list(currentAuth(request).user.id) },
  }));

  app.post('/user/webhooks', { config, schema: { tags, body: createWebhookBody, response: { 200: envelope(createdWebhookDto), ...errors } } }, async (request) => ({
    data: await webhooks.create(currentAuth(request).user.id, request.body, request.t),
    message: request.t('messages.saved'),
  }));

  app.put('/user/webhooks/:id', { config, schema: { tags, params: idParams, body: updateWebhookBody, response: { 200: envelope(webhookDto), ...errors } } }, async (request) => ({
    data: await webhooks.update(currentAuth(request).user.id, request.params.id, request.body, request.t),
    message: request.t('messages.saved'),
  }));

  app.delete('/user/webhooks/:id', { config, schema: { tags, params: idParams, body: emptyBody, response: { 200: envelope(z.null()), ...errors } } }, async (request) => {
    await webhooks.remove(currentAuth(request).user.id, request.params.id);
    return { data: null, message: request.t('messages.deleted') };
  });

  app.get(
    '/user/webhooks/:id/deliveries',
    { config, schema: { tags, params: idParams, querystring: webhookDeliveryQuery, response: { 200: envelope(pageOf(webhookDeliveryDto)), ...errors } } },
    async (request) => ({ data: await webhooks.deliveries(currentAuth(request).user.id, request.params.id, request.query) }),
  );

  app.post(
    '/user/webhooks/:id/deliveries/:deliveryId/replay',
    { config: { ...config, limit: 'webhook-replay' }, schema: { tags, params: webhookDeliveryParams, body: emptyBody, response: { 200: envelope(webhookDeliveryDto), ...errors } } },
    async (request) => ({ data: await webhooks.replay(currentAuth(request).user.id, request.params.id, request.params.deliveryId) }),
  );
};

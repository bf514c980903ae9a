import { emptyBody, envelope, errorBody, idParams, providerBody, providerDto, supplySettings } from '@resi/contract';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { AppError } from '../../shared/errors';
import { currentAuth } from '../../shared/request-context';
import type { ProviderService } from './provider-service';
import { inForce } from './supply-template';

const errors = { 400: errorBody, 401: errorBody, 403: errorBody, 404: errorBody };

/** Admin: upstream providers (DESIGN §15) and the gateway's supply settings. */
export const providerRoutes: FastifyPluginAsyncZod<{ providers: ProviderService; production: boolean }> = async (app, { providers, production }) => {
  const config = { access: 'admin' as const };
  const tags = ['admin', 'supply'];
  const actor = (request: FastifyRequest) => ({ id: currentAuth(request).user.id, ip: request.ip });

  app.get('/manage/providers', { config, schema: { tags, response: { 200: envelope(z.object({ items: z.array(providerDto) })), ...errors } } }, async () => ({
    data: { items: await providers.list() },
  }));

  app.post('/manage/providers', { config, schema: { tags, body: providerBody, response: { 200: envelope(providerDto), ...errors } } }, async (request) => ({
    data: await providers.create(request.body, actor(request), request.t),
    message: request.t('messages.saved'),
  }));

  app.put('/manage/providers/:id', { config, schema: { tags, params: idParams, body: providerBody, response: { 200: envelope(providerDto), ...errors } } }, async (request) => ({
    data: await providers.update(request.params.id, request.body, actor(request), request.t),
    message: request.t('messages.saved'),
  }));

  app.delete('/manage/providers/:id', { config, schema: { tags, params: idParams, body: emptyBody, response: { 200: envelope(z.null()), ...errors } } }, async (request) => {
    await providers.remove(request.params.id, actor(request));
    return { data: null, message: request.t('messages.deleted') };
  });

  app.get('/manage/supply', { config, schema: { tags, response: { 200: envelope(supplySettings), ...errors } } }, async () => ({
    data: inForce(await providers.supplySettings(), production),
  }));

  app.post('/manage/supply', { config, schema: { tags, body: supplySettings, response: { 200: envelope(supplySettings), ...errors } } }, async (request) => {
    // Direct egress is the demo's exit (the gateway host's own address, any region): never in production.
    if (production && request.body.directEgress) throw new AppError('DIRECT_EGRESS_UNAVAILABLE');
    await providers.saveSupplySettings(request.body, actor(request));
    return { data: request.body, message: request.t('messages.saved') };
  });
};

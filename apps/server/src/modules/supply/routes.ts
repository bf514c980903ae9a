import { emptyBody, envelope, errorBody, idParams, supplySettings, upstreamBody, upstreamDto } from '@resi/contract';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { assertTemplate } from '../../shared/provider-template';
import { AppError } from '../../shared/errors';
import { currentAuth } from '../../shared/request-context';
import type { SupplyService } from './supply-service';
import { inForce, keepMaskedPassword, redactTemplate } from './supply-template';

const errors = { 400: errorBody, 401: errorBody, 403: errorBody, 404: errorBody };

/** Admin: the upstream proxies rotating traffic exits through, and the gateway's supply settings. */
export const supplyRoutes: FastifyPluginAsyncZod<{ supply: SupplyService; production: boolean }> = async (app, { supply, production }) => {
  const config = { access: 'admin' as const };
  const tags = ['admin', 'supply'];
  const actor = (request: FastifyRequest) => ({ id: currentAuth(request).user.id, ip: request.ip });

  app.get('/manage/upstream', { config, schema: { tags, response: { 200: envelope(z.object({ items: z.array(upstreamDto) })), ...errors } } }, async () => ({
    data: { items: await supply.list() },
  }));

  app.post('/manage/upstream', { config, schema: { tags, body: upstreamBody, response: { 200: envelope(upstreamDto), ...errors } } }, async (request) => ({
    data: await supply.create(request.body, actor(request)),
    message: request.t('messages.saved'),
  }));

  app.put('/manage/upstream/:id', { config, schema: { tags, params: idParams, body: upstreamBody, response: { 200: envelope(upstreamDto), ...errors } } }, async (request) => ({
    data: await supply.update(request.params.id, request.body, actor(request)),
    message: request.t('messages.saved'),
  }));

  app.delete('/manage/upstream/:id', { config, schema: { tags, params: idParams, body: emptyBody, response: { 200: envelope(z.null()), ...errors } } }, async (request) => {
    await supply.remove(request.params.id, actor(request));
    return { data: null, message: request.t('messages.deleted') };
  });

  // The template's password is shown masked; saving the masked form back keeps the stored password.
  app.get('/manage/supply', { config, schema: { tags, response: { 200: envelope(supplySettings), ...errors } } }, async () => ({
    data: redactTemplate(inForce(await supply.settings(), production)),
  }));

  app.post('/manage/supply', { config, schema: { tags, body: supplySettings, response: { 200: envelope(supplySettings), ...errors } } }, async (request) => {
    const before = await supply.settings();
    // Direct egress is the demo's exit (the gateway host's own address, any region): never in production.
    if (production && request.body.directEgress) throw new AppError('DIRECT_EGRESS_UNAVAILABLE');
    const next = { ...request.body, template: keepMaskedPassword(request.body.template, before.template) };
    if (next.template) {
      try {
        assertTemplate(next.template);
      } catch {
        throw new AppError('VALIDATION_FAILED', { detail: request.t('validation.template') });
      }
    }
    await supply.saveSettings(next, before, actor(request));
    return { data: redactTemplate(next), message: request.t('messages.saved') };
  });
};

import { allowlistEntryDto, allowlistListDto, allowlistQuery, createAllowlistBody, emptyBody, envelope, errorBody, idParams } from '@resi/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { keyScope } from '../../shared/key-scope';
import { currentAuth } from '../../shared/request-context';
import type { AllowlistService } from './allowlist-service';

const errors = { 400: errorBody, 401: errorBody, 403: errorBody, 404: errorBody, 409: errorBody };

/** `GET/POST/DELETE /proxy/allowlist` (DESIGN §13): a customer's allowlisted addresses. */
export const allowlistRoutes: FastifyPluginAsyncZod<{ allowlist: AllowlistService }> = async (app, { allowlist }) => {
  const config = { access: 'customer' as const };
  const tags = ['proxies'];

  app.get('/proxy/allowlist', { config, schema: { security: keyScope('read'), tags, querystring: allowlistQuery, response: { 200: envelope(allowlistListDto), ...errors } } }, async (request) => ({
    // The address this request came from (TRUST_PROXY decides): what "add my current IP" adds.
    data: { items: await allowlist.list(currentAuth(request).user.id, request.query), callerAddress: request.ip },
  }));

  app.post('/proxy/allowlist', { config, schema: { security: keyScope('proxies'), tags, body: createAllowlistBody, response: { 200: envelope(allowlistEntryDto), ...errors } } }, async (request) => ({
    data: await allowlist.create(currentAuth(request).user.id, request.body, request.ip),
    message: request.t('messages.saved'),
  }));

  app.delete('/proxy/allowlist/:id', { config, schema: { security: keyScope('proxies'), tags, params: idParams, body: emptyBody, response: { 200: envelope(z.null()), ...errors } } }, async (request) => {
    await allowlist.remove(currentAuth(request).user.id, request.params.id);
    return { data: null, message: request.t('messages.deleted') };
  });
};

import { apiKeyDto, createApiKeyBody, createdApiKeyDto, emptyBody, envelope, errorBody, idParams } from '@resi/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { currentAuth } from '../../shared/request-context';
import type { ApiKeyService } from './api-key-service';

const errors = { 400: errorBody, 401: errorBody, 403: errorBody, 404: errorBody, 409: errorBody };

/**
 * `GET/POST/DELETE /user/api-keys` (DESIGN §14): a customer's own keys. No scope: a key never manages keys,
 * so a leaked one cannot make itself a successor.
 */
export const apiKeyRoutes: FastifyPluginAsyncZod<{ apiKeys: ApiKeyService }> = async (app, { apiKeys }) => {
  const config = { access: 'customer' as const };
  const tags = ['api-keys'];

  app.get('/user/api-keys', { config, schema: { tags, response: { 200: envelope(z.object({ items: z.array(apiKeyDto) })), ...errors } } }, async (request) => ({
    data: { items: await apiKeys.list(currentAuth(request).user.id) },
  }));

  app.post('/user/api-keys', { config, schema: { tags, body: createApiKeyBody, response: { 200: envelope(createdApiKeyDto), ...errors } } }, async (request) => ({
    data: await apiKeys.create(currentAuth(request).user.id, request.body, request.t),
    message: request.t('messages.saved'),
  }));

  app.delete('/user/api-keys/:id', { config, schema: { tags, params: idParams, body: emptyBody, response: { 200: envelope(z.null()), ...errors } } }, async (request) => {
    await apiKeys.revoke(request.params.id, currentAuth(request).user.id);
    return { data: null, message: request.t('messages.deleted') };
  });

  /** An admin revokes any customer's key (User Management lists them in the user's detail). */
  app.delete(
    '/manage/api-keys/:id',
    { config: { access: 'admin' }, schema: { tags: ['admin', ...tags], params: idParams, body: emptyBody, response: { 200: envelope(z.null()), ...errors } } },
    async (request) => {
      await apiKeys.revoke(request.params.id, null);
      return { data: null, message: request.t('messages.deleted') };
    },
  );
};

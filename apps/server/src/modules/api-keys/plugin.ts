import type { FastifyPluginAsync } from 'fastify';
import fp from 'fastify-plugin';
import type { ModuleDeps } from '../module-deps';
import { ApiKeyService } from './api-key-service';
import { apiKeyRoutes } from './routes';

declare module 'fastify' {
  interface FastifyInstance {
    /** Customers' API keys: the access guard checks a request's key with them (http/access-guard.ts). */
    apiKeys: ApiKeyService;
  }
}

/** The key service on the app itself, where the access guard and the orders module find it. */
export const apiKeyServices = fp<ModuleDeps>(
  async (app, { db, clock }) => {
    const service = new ApiKeyService(db, clock, (err) => app.log.error({ err }, 'api keys: could not write calls'));
    app.decorate('apiKeys', service);
    app.addHook('onClose', () => service.close());
  },
  { name: 'api-key-services' },
);

/** `…/user/api-keys` and the admin's revoke. */
export const apiKeysModule: FastifyPluginAsync<ModuleDeps> = async (app) => {
  await app.register(apiKeyRoutes, { apiKeys: app.apiKeys });
};

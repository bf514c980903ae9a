import type { FastifyPluginAsync } from 'fastify';
import type { ModuleDeps } from '../module-deps';
import { AllowlistService } from './allowlist-service';
import { allowlistRoutes } from './routes';

/** Allowlisted addresses of proxy accounts and static IPs; each change is announced to the gateways. */
export const allowlistModule: FastifyPluginAsync<ModuleDeps> = async (app, { config, db, clock, cutoffs }) => {
  await app.register(allowlistRoutes, {
    allowlist: new AllowlistService(db, clock, { max: config.ALLOWLIST_MAX, allowPrivate: config.ALLOWLIST_PRIVATE_ADDRESSES }, cutoffs),
  });
};

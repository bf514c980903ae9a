import type { FastifyPluginAsync } from 'fastify';
import type { ModuleDeps } from '../module-deps';
import { DistributionRepository } from './distribution-repository';
import { distributionRoutes } from './routes';

export const distributionModule: FastifyPluginAsync<ModuleDeps> = async (app, { config, db }) => {
  await app.register(distributionRoutes, { distribution: new DistributionRepository(db), publicUrl: config.PUBLIC_URL });
};

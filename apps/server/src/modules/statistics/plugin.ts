import type { FastifyPluginAsync } from 'fastify';
import type { ModuleDeps } from '../module-deps';
import { StatisticsRepository } from './statistics-repository';
import { statisticsRoutes } from './statistics-routes';
import { StatisticsService } from './statistics-service';

/** The admin's Statistics (docs/business-rules.md#statistics): read-only figures over orders, users and usage. */
export const statisticsModule: FastifyPluginAsync<ModuleDeps> = async (app, { config, db, clock }) => {
  const service = new StatisticsService(new StatisticsRepository(db, config.CURRENCY), clock, config.CURRENCY);
  await app.register(statisticsRoutes, { service, clock });
};

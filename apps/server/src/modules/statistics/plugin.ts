import type { FastifyPluginAsync } from 'fastify';
import type { ModuleDeps } from '../module-deps';
import { MarginRepository } from './margin-repository';
import { MarginService } from './margin-service';
import { StatisticsRepository } from './statistics-repository';
import { statisticsRoutes } from './statistics-routes';
import { StatisticsService } from './statistics-service';

/** The admin's Statistics (docs/business-rules.md#statistics): read-only figures over orders, users and usage, and the margin (docs/business-rules.md#margin). */
export const statisticsModule: FastifyPluginAsync<ModuleDeps> = async (app, { config, db, clock }) => {
  const margin = new MarginService(new MarginRepository(db, config.CURRENCY));
  const service = new StatisticsService(new StatisticsRepository(db, config.CURRENCY), clock, config.CURRENCY, margin);
  await app.register(statisticsRoutes, { service, clock });
};

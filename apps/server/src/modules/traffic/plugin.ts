import type { FastifyPluginAsync } from 'fastify';
import type { ModuleDeps } from '../module-deps';
import { trafficRoutes } from './routes';
import { TrafficRepository, UsageRepository } from './traffic-repository';
import { UsageRecordRepository } from './usage-record-repository';
import { usageRecordRoutes } from './usage-record-routes';

/** A customer's balance and usage, and the usage records. */
export const trafficModule: FastifyPluginAsync<ModuleDeps> = async (app, { db, clock }) => {
  await app.register(trafficRoutes, { traffic: new TrafficRepository(db), usage: new UsageRepository(db), clock });
  await app.register(usageRecordRoutes, { records: new UsageRecordRepository(db), clock });
};

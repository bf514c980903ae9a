import type { FastifyPluginAsync } from 'fastify';
import { SEAL_LABELS, SealedBox } from '../../lib/sealed-box';
import { AuditLogRepository } from '../audit/audit-log-repository';
import type { ModuleDeps } from '../module-deps';
import { supplyRoutes } from './routes';
import { SupplyRepository } from './supply-repository';
import { SupplyService } from './supply-service';

export const supplyModule: FastifyPluginAsync<ModuleDeps> = async (app, { config, db, clock }) => {
  const supply = new SupplyRepository(db, clock, new SealedBox(config.APP_SECRET, SEAL_LABELS.upstreamPassword));
  await app.register(supplyRoutes, { supply: new SupplyService(db, supply, new AuditLogRepository(db, clock)), production: config.NODE_ENV === 'production' });
};

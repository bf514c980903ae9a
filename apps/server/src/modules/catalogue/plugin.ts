import type { FastifyPluginAsync } from 'fastify';
import { AuditLogRepository } from '../audit/audit-log-repository';
import type { ModuleDeps } from '../module-deps';
import { StaticStockRepository } from '../static-ips/stock-repository';
import { catalogueAdminRoutes } from './admin-routes';
import { CatalogueAdminService } from './catalogue-admin-service';
import { CatalogueRepository } from './catalogue-repository';
import { catalogueRoutes } from './routes';

/** The shop window for customers and its editing desk for admins. */
export const catalogueModule: FastifyPluginAsync<ModuleDeps> = async (app, { config, db, clock }) => {
  await app.register(catalogueRoutes, { catalogue: new CatalogueRepository(db), stock: new StaticStockRepository(db), clock });
  await app.register(catalogueAdminRoutes, { catalogue: new CatalogueAdminService(db, clock, new AuditLogRepository(db, clock)), currency: config.CURRENCY });
};
